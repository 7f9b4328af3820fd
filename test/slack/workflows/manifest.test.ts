import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { entryOfCommand, REGISTRY } from '../../../src/core/operations/registry/index.js';
import { allSteps, CHANNEL_INPUT, RUNNER_INPUT } from '../../../src/core/workflows/steps.js';
import { generateManifest } from '../../../src/slack/manifest/generate.js';
import {
  type ManifestFunction,
  manifestFunctions,
  stepsTable,
} from '../../../src/slack/workflows/manifest.js';

const FILE = new URL('../../../manifest.yml', import.meta.url);
const DOCS = new URL('../../../docs/workflows.md', import.meta.url);
const TABLE = /(<!-- steps table: generated, do not edit -->\n)[\s\S]*?(<!-- end of steps table -->)/;

// `npm run manifest` writes manifest.yml (test/manifest.test.ts) while this file runs beside it: what it
// checks is then what is being written, not the file as it was.
const written = process.env.UPDATE_MANIFEST === '1' ? (await generateManifest()).manifest : undefined;

// Slack's manifest rules for functions (app manifest reference, "functions"), and what Workflow Builder
// needs to chain the bot's steps.
const TYPES = new Set([
  'string',
  'boolean',
  'integer',
  'number',
  'slack#/types/user_context',
  'slack#/types/channel_id',
]);

describe('manifest.yml functions (Workflow Builder steps)', () => {
  // `npm run manifest` writes the table anew (and manifest.yml: test/manifest.test.ts).
  if (process.env.UPDATE_MANIFEST === '1') {
    const docs = readFileSync(DOCS, 'utf8');
    const table = docs.replace(
      TABLE,
      (_m, open: string, close: string) => `${open}${stepsTable()}\n${close}`,
    );
    if (table !== docs) writeFileSync(DOCS, table);
  }
  const doc = (written ?? parse(readFileSync(FILE, 'utf8'))) as Record<string, unknown>;
  const functions = doc.functions as Record<string, ManifestFunction>;

  it('are the steps the registry gives, exactly (`npm run manifest` writes them anew)', () => {
    expect(functions).toEqual(manifestFunctions());
  });

  it('are every registry entry that hands something on, a step per leading word, each on its entry', () => {
    // Derived, not listed: a flow's declared outputs, or the resource a lookup or a create names. The
    // flow lookup hands nothing on of its own and is no step.
    const handsOn = REGISTRY.filter((e) => e.outputs?.declared.some((o) => o.feeds !== false));
    expect(Object.keys(functions)).toEqual(
      handsOn.flatMap((e) =>
        (e.command.lead?.split('|') ?? ['']).map((w) =>
          `tsai_${[...e.command.words, w].filter(Boolean).join('_')}`.replace(/[^a-z0-9_]+/g, '_'),
        ),
      ),
    );
    expect(Object.keys(functions)).toEqual(expect.arrayContaining(['tsai_learn', 'tsai_live_start']));
    expect(REGISTRY.length).toBeGreaterThan(handsOn.length);
    for (const st of allSteps()) {
      const entry = entryOfCommand(st.commandId)!;
      const argInputs = st.inputs.filter((i) => i.argKey).map((i) => i.argKey);
      expect(argInputs).toEqual(entry.args.map((a) => a.key));
      expect(st.description).toContain(`Needs the ${entry.role} role`);
    }
  });

  it('keep Slack’s rules: typed inputs, IDs as strings, the runner as user_context, an optional channel', () => {
    for (const [callbackId, f] of Object.entries(functions)) {
      expect(callbackId).toMatch(/^[a-z0-9_]{1,100}$/);
      expect(f.title.length).toBeGreaterThan(0);
      expect(f.title.length).toBeLessThanOrEqual(100);
      expect(f.description.length).toBeLessThanOrEqual(1000);
      for (const params of [f.input_parameters, f.output_parameters]) {
        for (const [name, p] of Object.entries(params.properties)) {
          expect(name).toMatch(/^[a-z0-9_]+$/);
          expect(TYPES.has(p.type), `${callbackId}.${name}: ${p.type}`).toBe(true);
          expect(p.title.length).toBeGreaterThan(0);
        }
        for (const r of params.required) expect(Object.keys(params.properties)).toContain(r);
      }
      const inputs = f.input_parameters;
      expect(inputs.properties[RUNNER_INPUT]?.type).toBe('slack#/types/user_context');
      expect(inputs.required).toContain(RUNNER_INPUT);
      expect(inputs.properties[CHANNEL_INPUT]?.type).toBe('slack#/types/channel_id');
      expect(inputs.required).not.toContain(CHANNEL_INPUT);
      // Service IDs exceed what a number holds exactly: every ID goes in and out as a string.
      for (const [name, p] of [
        ...Object.entries(inputs.properties),
        ...Object.entries(f.output_parameters.properties),
      ])
        if (/(^|_)(id|workspace|model|dataspec|assessment|datastream)$/.test(name))
          expect(p.type).toBe('string');
    }
  });

  it('hand on what the next step takes: a learn’s model and dataspec are a score’s inputs', () => {
    const learnOut = Object.keys(functions.tsai_learn!.output_parameters.properties);
    expect(learnOut).toEqual(
      expect.arrayContaining(['flow_id', 'status', 'model_id', 'dataspec_id', 'workspace_id']),
    );
    const scoreIn = Object.keys(functions.tsai_score!.input_parameters.properties);
    expect(scoreIn).toEqual(expect.arrayContaining(['model', 'dataspec', 'workspace']));
    expect(Object.keys(functions.tsai_score!.output_parameters.properties)).toEqual(
      expect.arrayContaining(['eval_id', 'output_signals']),
    );
  });

  it('hand on a model’s whole life: a learn’s model and assessment are what live start, EVAL and live stop take', () => {
    const learnOut = Object.keys(functions.tsai_learn!.output_parameters.properties);
    expect(learnOut).toEqual(expect.arrayContaining(['model_id', 'assessment_id', 'live']));
    for (const next of ['tsai_live_start', 'tsai_eval', 'tsai_live_stop'])
      expect(Object.keys(functions[next]!.input_parameters.properties)).toEqual(
        expect.arrayContaining(next === 'tsai_eval' ? ['model', 'assessment'] : ['model']),
      );
    // A flow's ID and status are always there; what the service may leave out is never required.
    expect(functions.tsai_learn!.output_parameters.required).toEqual(['flow_id', 'status']);
  });

  it('are the steps docs/workflows.md describes (its table is generated)', () => {
    const block = TABLE.exec(readFileSync(DOCS, 'utf8'));
    expect(block?.[0]).toBe(`${block?.[1]}${stepsTable()}\n${block?.[2]}`);
  });

  it('are offered: the app is org-ready, runs its steps itself and hears function_executed', () => {
    const settings = doc.settings as Record<string, unknown>;
    expect(Object.keys(functions.tsai_live_start!.output_parameters.properties)).toEqual([
      'flow_id',
      'status',
      'request_id',
      'model_id',
      'model_name',
      'live',
      'assessment_id',
    ]);
    expect(settings.org_deploy_enabled).toBe(true);
    expect(settings.function_runtime).toBe('remote');
    expect((settings.event_subscriptions as { bot_events: string[] }).bot_events).toContain(
      'function_executed',
    );
  });
});
