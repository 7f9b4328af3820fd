import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/grammar/parse.js';
import { FLAG } from '../../src/core/kinds/index.js';
import { execute, type ServiceOperation } from '../../src/core/operations/execute.js';
import { requestParams } from '../../src/core/operations/params.js';
import { anomalyLearn } from '../../src/core/operations/registry/anomaly-learn.js';
import type { AnyEntry, Finished, OutputSpec } from '../../src/core/operations/registry/entry.js';
import { REGISTRY } from '../../src/core/operations/registry/index.js';
import { allNextSteps, nextStepsOf, readOutputs } from '../../src/core/tracking/outputs.js';
import { type Harness, startHarness } from '../support/emulator.js';

/**
 * What an operation yields is declared once, by its registry entry, and every surface reads it from the
 * declaration. Here every entry is run against the emulator, as the bot runs it, and what it reads from
 * the service's answer must be what it declares: an output an entry returns but does not declare fails
 * here, not in front of a person (where it is left out).
 */

const NOW = new Date(Date.UTC(2026, 0, 15, 12));

/** The entry's first example, with each of its leading words, as the entry resolves it. */
function exampleOf(entry: AnyEntry, word?: string): ServiceOperation {
  let text = (entry.command.examples[0] ?? '').replace(/^\/tsai\s+/, '');
  if (word && entry.command.lead) text = text.replace(new RegExp(`\\b(${entry.command.lead})\\b`), word);
  const parsed = parseCommand(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message}`);
  const resolved = entry.resolve(parsed.command, { now: NOW, timeZone: 'UTC', userName: 'someone' });
  if (!resolved.ok) throw new Error(`${text}: ${resolved.message}`);
  // A request filed for approval runs, once approved, as the entry's own operation.
  return (
    entry.approval
      ? { ...resolved.operation, kind: entry.operationKind, name: `declared ${word}`, approvalId: 'A1' }
      : resolved.operation
  ) as ServiceOperation;
}

let h: Harness;
beforeAll(async () => {
  // Flows run at once and wait: each is finished here, then read back as the tracker reads it.
  h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 3_600_000 });
});
afterAll(() => h?.close());

/** What the bot reads of the operation once it is done: a flow finished and read back, or the record named. */
async function finished(op: ServiceOperation): Promise<Finished<unknown>> {
  const outcome = await execute(op, h.client.client, { timeZone: 'UTC', now: NOW });
  if (!outcome.ok) throw new Error(`${op.kind}: ${outcome.message}`);
  const request = requestParams(op);
  if (!outcome.flow) return { request, ...(outcome.seen ? { returned: outcome.seen } : {}) };
  await h.control('POST', `flows/${outcome.flow.id}/finish`);
  const read = await h.client.getFlow(outcome.flow.id);
  if (!read.supported || read.view.status !== 'COMPLETED') throw new Error(`${op.kind}: not completed`);
  return { request, results: read.view.results };
}

const stepsOf = (e: AnyEntry) =>
  (e.command.lead?.split('|') ?? [undefined]).map((word) => ({ entry: e, word }));

describe('what each entry yields is what it declares', () => {
  const entries = REGISTRY.filter((e) => e.outputs);

  // Read from the registry and what each entry does, not from a list: an entry that creates a flow or
  // whose answer names a record has something to hand on, and must declare it.
  for (const entry of REGISTRY.filter((e) => !e.outputs))
    it(`${entry.command.id}: declares no outputs, and neither creates a flow nor names a record`, async () => {
      expect(entry.wire.flowType).toBeUndefined();
      const outcome = await execute(exampleOf(entry), h.client.client, { timeZone: 'UTC', now: NOW });
      expect(outcome.ok && outcome.seen).toBeFalsy();
    });

  it('some entries hand something on', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  // Run against the emulator in the registry's order: `live start` before `live stop`, on one model.
  for (const { entry, word } of entries.flatMap(stepsOf))
    it(`${entry.command.id}${word ? ` ${word}` : ''}: read from the service's answer, every output declared`, async () => {
      const y = readOutputs(entry, await finished(exampleOf(entry, word)));
      expect(y.undeclared).toEqual([]);
      expect(y.outputs.length).toBeGreaterThan(0);
    });

  it('an output an entry returns but does not declare is caught, and left out of what surfaces read', async () => {
    const outputs = anomalyLearn.outputs!;
    const sloppy = {
      ...anomalyLearn,
      outputs: { ...outputs, read: (done: Finished<never>) => ({ ...outputs.read(done), forecast: 'x' }) },
    };
    const y = readOutputs(sloppy, await finished(exampleOf(anomalyLearn)));
    expect(y.undeclared).toEqual(['forecast']);
    expect(y.outputs.map((o) => o.spec.name)).not.toContain('forecast');
    expect(y.outputs.map((o) => o.spec.name)).toEqual(
      expect.arrayContaining(['model', 'dataspec', 'assessment', 'live', 'workspace']),
    );
  });

  it('a learned model offers what comes next in its life, as its state allows; a live one, its backfill and its stop', async () => {
    const learned = readOutputs(anomalyLearn, await finished(exampleOf(anomalyLearn)));
    expect(nextStepsOf(learned).map((s) => s.id)).toEqual(['score', 'live-start', 'relearn']);
    const model = learned.outputs.find((o) => o.spec.name === 'model')!.value as { id: string };
    const live = REGISTRY.find((e) => e.command.id === 'live')!;
    const started = readOutputs(
      live,
      await finished({
        kind: 'live-model',
        action: 'start',
        modelId: model.id,
        name: 'take it live',
        approvalId: 'A2',
      } as ServiceOperation),
    );
    const next = nextStepsOf(started);
    expect(next.map((s) => s.id)).toEqual(['score', 'eval', 'live-stop', 'relearn']);
    // The backfill's form opens on the model and its assessment (its signal); the stop runs on the model.
    const assessment = learned.outputs.find((o) => o.spec.name === 'assessment')!.value;
    expect(next.find((s) => s.id === 'eval')).toMatchObject({
      form: 'eval',
      given: { assessment, model: model.id },
    });
    expect(next.find((s) => s.id === 'live-stop')).toEqual({
      id: 'live-stop',
      label: 'Stop it',
      primary: false,
      given: { model: model.id },
    });
  });
});

describe('declarations that hold together', () => {
  const declared = REGISTRY.flatMap((e) => (e.outputs?.declared ?? []).map((o) => ({ e, o })));
  const keys = new Set(REGISTRY.flatMap((e) => e.args.map((a) => a.key)));
  const flags = new Set(declared.filter(({ o }) => o.type === FLAG).map(({ o }) => o.name));

  it('each output is named once in its entry, in snake_case, and feeds an argument some operation takes', () => {
    for (const e of REGISTRY) {
      const names = (e.outputs?.declared ?? []).map((o: OutputSpec) => o.name);
      expect(new Set(names).size, e.command.id).toBe(names.length);
    }
    for (const { e, o } of declared) {
      expect(o.name, e.command.id).toMatch(/^[a-z][a-z0-9_]*$/);
      if (typeof o.feeds === 'string') expect(keys, `${e.command.id}.${o.name}`).toContain(o.feeds);
      for (const linked of Object.values(o.catalog?.links ?? {}))
        expect(
          e.outputs!.declared.map((x: OutputSpec) => x.name),
          `${e.command.id}.${o.name}`,
        ).toContain(linked);
    }
  });

  it('each next step needs arguments its entry takes, in states some output declares', () => {
    for (const { id, entry, step } of allNextSteps()) {
      for (const k of step.needs)
        expect(
          entry.args.map((a) => a.key),
          id,
        ).toContain(k);
      for (const name of Object.keys(step.when ?? {})) expect(flags, id).toContain(name);
      if (step.word) expect(entry.command.lead?.split('|'), id).toContain(step.word);
    }
    expect(new Set(allNextSteps().map((s) => s.id)).size).toBe(allNextSteps().length);
  });
});
