import { readFileSync, writeFileSync } from 'node:fs';
import { type AnyEntry, SERVICE_ROLES } from '../../src/core/operations/registry/entry.js';
import { REGISTRY } from '../../src/core/operations/registry/index.js';
import { ROUTES, type Route } from '../../standins/emulator/api.js';
import { FLOW_TYPES, type FlowType } from '../../standins/emulator/flow-types.js';

/**
 * The tables of docs/api-and-emulator.md that are made from the code: the calls the bot makes, one per
 * registry entry (and flow type), the emulator's routes beyond them, and who may make each. A test keeps
 * the file equal to them (test/api-docs.test.ts); `UPDATE_DOCS=1` writes them in.
 */

export const API_DOCS = new URL('../../docs/api-and-emulator.md', import.meta.url);

/** `/models/{model}` -> `models/:model`, as the emulator's routes write a path. */
const patternOf = (path: string) =>
  path
    .replace(/^\//, '')
    .split('/')
    .map((p) => (/^\{\w+\}$/.test(p) ? ':' : p));

/** The emulator route that serves an entry's call: its version, method and path shape. */
export function routeOf(entry: AnyEntry) {
  const want = patternOf(entry.wire.path);
  return ROUTES.find(
    (r) =>
      r.version === entry.wire.version &&
      r.method === entry.wire.method &&
      r.pattern.length === want.length &&
      r.pattern.every((p, i) => (p.startsWith(':') ? want[i] === ':' : p === want[i])),
  );
}

const code = (s: string) => `\`${s}\``;

/** The request line of a call: method, path at its version, its query, its body's fields or flow type. */
async function requestOf(entry: AnyEntry): Promise<string> {
  const w = entry.wire;
  const query = w.query
    ? `?${Object.entries(w.query)
        .map(([k, v]) => `${k}=${v}`)
        .join('&')}`
    : '';
  const line = code(`${w.method} /api/${w.version}/accounts/{a}${w.path}${query}`);
  if (w.flowType) return `${line}, ${w.flowType.all.map((t) => code(`flowType: ${t}`)).join(' or ')}`;
  const { body } = await w.schemas();
  const shape = (body as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? `${line} body ${code(`{${Object.keys(shape).join(', ')}}`)}` : line;
}

const commandOf = (e: AnyEntry) =>
  code(`/tsai ${[...e.command.words, ...(e.command.lead ? [e.command.lead] : [])].join(' ')}`);

function table(head: string[], rows: string[][]): string {
  const row = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [row(head), `| ${head.map(() => '---').join(' | ')} |`, ...rows.map(row)].join('\n');
}

/** Each call the bot makes: the operation whose registry entry declares it, and the request it sends. */
export async function callsTable(): Promise<string> {
  const rows: string[][] = [];
  for (const e of REGISTRY)
    rows.push([commandOf(e), await requestOf(e), e.approval ? 'once an approver approves it' : 'when asked']);
  return table(['Operation', 'Request', 'Sent'], rows);
}

/** A route as the docs show it: `GET /api/1.3/accounts/{a}/flows/{id}`. */
const routeLine = (r: Route) =>
  code(
    `${r.method} /api/${r.version}/accounts/{a}/${r.pattern.map((p) => (p.startsWith(':') ? '{id}' : p)).join('/')}`,
  );

/** The emulator's routes the spec does not document. */
const extensions = () => ROUTES.filter((r) => r.extension !== undefined);

/** The emulator's extensions, each with why it is there. */
export function extensionsTable(): string {
  return table(
    ['Route', 'Why the emulator has it'],
    extensions().map((r) => [routeLine(r), r.extension!]),
  );
}

/** The least role each call needs, as the registry declares it and the emulator enforces it. */
export function rolesTable(): string {
  const yesFrom = (role: string) => {
    const at = SERVICE_ROLES.indexOf(role as (typeof SERVICE_ROLES)[number]);
    return SERVICE_ROLES.map((_, i) => (i >= at ? 'yes' : '403'));
  };
  const rows = REGISTRY.map((e) => {
    const types = e.wire.flowType?.all ?? [];
    const what = types.length ? `${commandOf(e)} (${types.map(code).join(', ')})` : commandOf(e);
    return [what, ...yesFrom(e.role)];
  });
  // An extension the bot calls is a row above; the others are the emulator's own.
  const served = new Set(REGISTRY.map(routeOf));
  for (const r of extensions().filter((x) => !served.has(x)))
    rows.push([routeLine(r), ...yesFrom(r.needs?.({})?.role ?? 'User')]);
  return table(['Operation', ...SERVICE_ROLES], rows);
}

/** The least role the emulator asks for the calls of an entry: its route's, else each flow type's. */
export function emulatorRolesOf(entry: AnyEntry): string[] {
  const types = entry.wire.flowType?.all ?? [];
  if (types.length) return types.map((t) => FLOW_TYPES[t as FlowType]?.needs?.role ?? 'User');
  return [routeOf(entry)?.needs?.({})?.role ?? 'User'];
}

const BLOCKS: Record<string, () => string | Promise<string>> = {
  calls: callsTable,
  'emulator extensions': extensionsTable,
  roles: rolesTable,
};

const block = (name: string) =>
  new RegExp(`(<!-- ${name} table: generated, do not edit -->\\n)[\\s\\S]*?(<!-- end of ${name} table -->)`);

/** The docs as they should be: each generated table as the code makes it now. */
export async function expectedDocs(): Promise<{ now: string; expected: string }> {
  const now = readFileSync(API_DOCS, 'utf8');
  let expected = now;
  for (const [name, make] of Object.entries(BLOCKS)) {
    const re = block(name);
    if (!re.test(expected)) throw new Error(`docs/api-and-emulator.md has no generated ${name} table`);
    const made = await make();
    expected = expected.replace(re, (_m, open: string, close: string) => `${open}${made}\n${close}`);
  }
  return { now, expected };
}

export function writeDocs(text: string): void {
  writeFileSync(API_DOCS, text);
}
