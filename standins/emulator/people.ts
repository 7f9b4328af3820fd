import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { describeIssues } from '../../src/wire/index.js';
import type { ApiReply } from './exchange.js';

/** The service's roles, weakest first: each may do what the ones before it may. */
export const ROLES = ['User', 'Manager', 'Owner'] as const;
export type Role = (typeof ROLES)[number];

/** The name of the shared identity the emulator's own token stands for (the bot's token). */
export const SHARED_IDENTITY = 'tsai-bot';

export interface Person {
  name: string;
  role: Role;
}

/** A person as a state file keeps them: their tokens only as SHA-256 digests. */
export interface StoredPerson extends Person {
  tokenDigests: string[];
}

/** Body of `POST /_emulator/users`. */
export const newPerson = z.strictObject({
  name: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$/,
      'must be 1 to 64 letters, digits, spaces or . _ @ -, starting with a letter or digit, e.g. "alice"',
    ),
  role: z.enum(ROLES, { error: 'must be Owner, Manager or User' }),
});

export const mayAct = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** The roles that may do what needs `needed`, for a refusal: "Manager or Owner". */
export const rolesFrom = (needed: Role): string => ROLES.slice(ROLES.indexOf(needed)).join(' or ');

/**
 * The newest tokens kept per person: the sandbox gives each persona a new one at every start, and the
 * state file must not grow without end. An older token then gets 401, as an expired one would.
 */
export const MAX_TOKENS_PER_PERSON = 50;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The people of the account and their tokens. The shared identity's token comes from the emulator's
 * options on every start; everyone else is added at run time and kept in the state file. Tokens are held
 * as digests only, so neither the file nor anything the emulator shows can give one back.
 */
export class People {
  private readonly byName = new Map<string, StoredPerson>();
  private readonly byDigest = new Map<string, string>();
  /** Called after every change (a person added, given a token or revoked, people loaded). */
  onChange: () => void = () => {};

  constructor(private readonly sharedToken: string) {}

  /** Who `authorization` (a whole `Bearer …` header) belongs to, or undefined for none or an unknown token. */
  identify(authorization: string | undefined): Person | undefined {
    const m = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!m) return undefined;
    if (m[1] === this.sharedToken) return { name: SHARED_IDENTITY, role: 'Owner' };
    const name = this.byDigest.get(digest(m[1]!));
    const person = name === undefined ? undefined : this.byName.get(name);
    return person && { name: person.name, role: person.role };
  }

  /**
   * A fresh token for the person named in `input`, adding them when new. Naming an existing person
   * again gives them another token (the earlier ones keep working) and the role given now.
   */
  issue(input: unknown): { ok: true; token: string } | { ok: false; message: string } {
    const r = newPerson.safeParse(input);
    if (!r.success) return { ok: false, message: describeIssues(r.error) };
    const { name, role } = r.data;
    if (name === SHARED_IDENTITY)
      return {
        ok: false,
        message: `name: ${SHARED_IDENTITY} is the shared identity of the bot; pick another name`,
      };
    const token = `tsai-u-${randomBytes(24).toString('base64url')}`;
    const person = this.byName.get(name) ?? { name, role, tokenDigests: [] };
    person.role = role;
    person.tokenDigests.push(digest(token));
    for (const old of person.tokenDigests.splice(0, person.tokenDigests.length - MAX_TOKENS_PER_PERSON))
      this.byDigest.delete(old);
    this.byName.set(name, person);
    this.byDigest.set(digest(token), name);
    this.onChange();
    return { ok: true, token };
  }

  /** Revokes every token of the person and forgets them; false when there was nobody of that name. */
  revoke(name: string): boolean {
    const person = this.byName.get(name);
    if (!person) return false;
    for (const d of person.tokenDigests) this.byDigest.delete(d);
    this.byName.delete(name);
    this.onChange();
    return true;
  }

  /** Everyone with their role, the shared identity first; never a token. */
  list(): Person[] {
    return [
      { name: SHARED_IDENTITY, role: 'Owner' },
      ...[...this.byName.values()].map(({ name, role }) => ({ name, role })),
    ];
  }

  stored(): StoredPerson[] {
    return [...this.byName.values()].map((p) => ({ ...p, tokenDigests: [...p.tokenDigests] }));
  }

  load(kept: StoredPerson[]): void {
    this.byName.clear();
    this.byDigest.clear();
    for (const p of kept) {
      if (p.name === SHARED_IDENTITY) continue;
      this.byName.set(p.name, { ...p, tokenDigests: [...p.tokenDigests] });
      for (const d of p.tokenDigests) this.byDigest.set(d, p.name);
    }
    this.onChange();
  }
}

export const storedPerson = z.object({
  name: z.string(),
  role: z.enum(ROLES),
  tokenDigests: z.array(z.string().regex(/^[0-9a-f]{64}$/)),
});

/**
 * `GET /_emulator/users` (names and roles), `POST /_emulator/users` (a token for a person) and
 * `DELETE /_emulator/users/{name}` (revoke their tokens); undefined for any other route.
 */
export function peopleControl(people: People, route: string, body: unknown): ApiReply | undefined {
  if (route === 'GET /_emulator/users') return { status: 200, body: people.list() };
  if (route === 'POST /_emulator/users') {
    const r = people.issue(body);
    return r.ok ? { status: 201, body: { token: r.token } } : { status: 400, body: { message: r.message } };
  }
  const deleting = /^DELETE \/_emulator\/users\/([^/]+)$/.exec(route);
  if (!deleting) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(deleting[1]!);
  } catch {
    return { status: 400, body: { message: 'path: malformed percent-encoding' } };
  }
  if (name === SHARED_IDENTITY)
    return {
      status: 400,
      body: { message: `${SHARED_IDENTITY} is the shared identity of the bot; its token cannot be revoked` },
    };
  return people.revoke(name)
    ? { status: 204, body: undefined }
    : { status: 404, body: { message: `nobody named ${name}: GET /_emulator/users lists everyone` } };
}
