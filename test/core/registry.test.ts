import { describe, expect, it } from 'vitest';
import { fieldsOf, formInputOf, maxRangesOf } from '../../src/core/forms/fields.js';
import { fieldsFromCommand } from '../../src/core/forms/prefill.js';
import { validateModal } from '../../src/core/forms/validate.js';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { commandArguments, parseCommand } from '../../src/core/grammar/parse.js';
import { defaultName } from '../../src/core/names.js';
import { specOf } from '../../src/core/operations/operation.js';
import { usageOf } from '../../src/core/operations/registry/entry.js';
import { formIds, REGISTRY } from '../../src/core/operations/registry/index.js';
import { resolveCommand } from '../../src/core/operations/resolve.js';
import { helpMessage } from '../../src/slack/views/messages.js';

const NOW = new Date('2026-11-22T09:14:00Z');
const ctx = { userName: 'alice', timeZone: 'Europe/Berlin', now: NOW };

describe('the registry of service operations', () => {
  it.each(REGISTRY.map((e) => [e.command.id, e] as const))('%s is a command with help', (id, entry) => {
    const spec = COMMANDS.find((c) => c.id === id);
    expect(spec).toBeDefined();
    expect(spec!.keys).toEqual(entry.args.map((a) => a.key));
    expect(entry.command.summary.length).toBeGreaterThan(10);
    expect(usageOf(entry)).toMatch(new RegExp(`^/tsai ${entry.command.words.join(' ')}\\b`));
    for (const arg of entry.args) expect(arg.help.length, arg.key).toBeGreaterThan(5);
    const help = parseCommand(`help ${id}`);
    expect(help.ok && help.command).toEqual({ kind: 'help', topic: id });
    expect(JSON.stringify(helpMessage(id).blocks)).toContain(entry.command.summary.slice(0, 20));
  });

  it.each(REGISTRY.flatMap((e) => e.command.examples.map((x) => [x, e] as const)))(
    'the example `%s` parses to its entry and resolves',
    (example, entry) => {
      const parsed = parseCommand(example.replace(/^\/tsai /, ''));
      if (!parsed.ok) throw new Error(`${example}: ${parsed.message}`);
      expect(parsed.spec.id).toBe(entry.command.id);
      expect(parsed.command.kind).toBe(entry.parsedKind);
      if (parsed.command.kind === 'help') throw new Error('not an operation');
      const resolved = resolveCommand(parsed.command, ctx);
      if (!resolved.ok) throw new Error(`${example}: ${resolved.message}`);
      // The live command files a request; its entry's flow comes when the request is approved.
      const kind = resolved.operation.kind === 'live-request' ? 'live-model' : resolved.operation.kind;
      expect(kind).toBe(entry.operationKind);
      if (resolved.operation.kind !== 'live-request')
        expect(specOf(resolved.operation).id).toBe(entry.command.id);
    },
  );

  const withForms = REGISTRY.filter((e) => e.form);
  it('the forms are the registry entries that have one', () => {
    expect(withForms.map((e) => e.form!.id).sort()).toEqual(formIds().sort());
  });

  it.each(withForms.map((e) => [e.form!.id, e] as const))(
    'the %s form shows every argument it takes, and resolves what its command resolves',
    (kind, entry) => {
      const form = entry.form!;
      const shown = fieldsOf(kind);
      expect(maxRangesOf(kind)).toBe(form.maxRanges);
      for (const item of form.fields)
        if ('arg' in item) expect(entry.args.find((a) => a.key === item.arg)?.field, item.arg).toBeDefined();
      for (const arg of entry.args) {
        const field = arg.field?.name;
        if (!field) continue;
        expect(form.fields, arg.key).toContainEqual({ arg: arg.key });
        if (field === 'ranges') expect(form.maxRanges).toBeGreaterThan(0);
        else expect(shown, `${arg.key} -> ${field}`).toContain(field);
      }

      const example = entry.command.examples[0]!;
      const given = commandArguments(example)!.given;
      const fields = fieldsFromCommand(kind, given);
      const name = defaultName(kind, ctx.userName, NOW);
      const fromForm = validateModal(kind, formInputOf(fields), {
        now: NOW,
        timeZone: ctx.timeZone,
        defaultName: name,
        needsChannel: false,
      });
      if (!fromForm.ok) throw new Error(`${example}: ${JSON.stringify(fromForm.errors)}`);
      const parsed = parseCommand(example.replace(/^\/tsai /, ''));
      if (!parsed.ok || parsed.command.kind === 'help') throw new Error(`${example} does not parse`);
      const fromCommand = resolveCommand(parsed.command, ctx);
      expect(fromCommand.ok && fromCommand.operation).toEqual(fromForm.request);
    },
  );
});
