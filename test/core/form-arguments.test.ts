import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../src/core/forms/choices.js';
import { commandLineOf } from '../../src/core/forms/command-line.js';
import {
  blockIdOf,
  type FormId,
  type FormInput,
  fieldsOf,
  formInputOf,
  rangeBlockId,
} from '../../src/core/forms/fields.js';
import { fieldsFromCommand } from '../../src/core/forms/prefill.js';
import { validateModal } from '../../src/core/forms/validate.js';
import { commandArguments, parseCommand } from '../../src/core/grammar/parse.js';
import { EXAMPLE_IDS as X } from '../../src/core/ids.js';
import { defaultName } from '../../src/core/names.js';
import {
  type Argument,
  type FormField,
  fieldNameOf,
  usageOf,
} from '../../src/core/operations/registry/entry.js';
import { REGISTRY } from '../../src/core/operations/registry/index.js';
import { resolveCommand } from '../../src/core/operations/resolve.js';

const NOW = new Date('2026-11-22T09:14:00Z');
const ctx = { userName: 'alice', timeZone: 'Europe/Berlin', now: NOW, locale: 'en-GB' };
const withForms = REGISTRY.filter((e) => e.form);

/** The form a person would submit with what a command gives, as the form opened from it is prefilled. */
function formOf(kind: FormId, command: string): FormInput {
  const given = commandArguments(command)!.given;
  const fields = fieldsFromCommand(kind, given);
  return formInputOf({ ...fields, ranges: fields.ranges ?? [''] });
}

function submit(kind: FormId, form: FormInput) {
  return validateModal(kind, form, {
    now: NOW,
    timeZone: ctx.timeZone,
    locale: ctx.locale,
    defaultName: defaultName(kind, ctx.userName, NOW),
    needsChannel: false,
  });
}

function fromCommand(command: string) {
  const parsed = parseCommand(command.replace(/^\/tsai /, ''));
  if (!parsed.ok || parsed.command.kind === 'help') throw new Error(`${command} does not parse`);
  const resolved = resolveCommand(parsed.command, ctx);
  if (!resolved.ok) throw new Error(`${command}: ${resolved.message}`);
  return resolved.operation;
}

const fieldOf = (arg: Argument): FormField => fieldNameOf(arg)!;
const blockOf = (field: FormField) => (field === 'ranges' ? rangeBlockId(1) : blockIdOf(field));

describe('a form reads the arguments of its registry entry', () => {
  it.each(withForms.map((e) => [e.form!.id, e] as const))(
    'every field the %s form shows is read by one of its arguments, or is the radio of a choice it offers',
    (_kind, entry) => {
      const shown = entry.args.filter((a) => a.field);
      const read = shown.map(fieldOf);
      expect(new Set(read).size, 'no field is read by two arguments').toBe(read.length);
      const offered = (choice: keyof typeof CHOICES) =>
        new Set(shown.filter((a) => a.side?.choice === choice).map((a) => a.side!.option));
      const radios = (Object.keys(CHOICES) as (keyof typeof CHOICES)[])
        .filter((choice) => offered(choice).size > 1)
        .map((choice) => CHOICES[choice].radio);
      const fields = fieldsOf(entry.form!.id);
      for (const field of fields)
        expect(read.includes(field) || radios.includes(field as never), field).toBe(true);
      for (const radio of radios) expect(fields).toContain(radio);
      expect(read.includes('ranges')).toBe(entry.form!.maxRanges > 0);
    },
  );

  it.each(withForms.map((e) => [e.form!.id, e] as const))(
    'the %s form asks for each argument it needs under that argument’s own field, and for nothing else',
    (kind, entry) => {
      const example = entry.command.examples[0]!;
      const valid = formOf(kind, example);
      expect(submit(kind, valid)).toMatchObject({ ok: true });
      for (const arg of entry.args.filter((a) => a.field)) {
        const field = fieldOf(arg);
        const cleared: FormInput =
          field === 'ranges'
            ? { ...valid, ranges: valid.ranges.map((r) => ({ ...r, text: '' })) }
            : { ...valid, [field]: '' };
        const filled = field === 'ranges' ? valid.ranges.some((r) => r.text) : Boolean(valid[field]);
        if (!filled) continue;
        const needed = arg.required || (arg.side !== undefined && !arg.side.detail);
        const out = submit(kind, cleared);
        if (needed)
          expect(out.ok ? [] : Object.keys(out.errors), `${example} without ${arg.key}`).toEqual([
            blockOf(field),
          ]);
        else expect(out.ok, `${example} without ${arg.key}`).toBe(true);
      }
    },
  );
});

describe('a form and the equivalent command produce identical requests', () => {
  const W = X.workspace;
  const M = X.model;
  const S1 = X.signal;
  const S2 = X.signal2;
  const cases: [FormId, string][] = [
    ...withForms.flatMap((e) => e.command.examples.map((x) => [e.form!.id, x] as [FormId, string])),
    [
      'learn',
      `learn workspace=${W} signals=${S1}:temperature,${S2} range="Nov 1 to Nov 3; yesterday 9am to 5pm" dataspec-name="november baseline" model-name="pump A" name="Pump A baseline" description="Normal operation"`,
    ],
    ['learn', `learn workspace=${W} dataspec=${X.dataspec} name=retrain`],
    ['relearn', `relearn ${M} workspace=${W} signals=${S1} range="20/11/2026 to 21/11/2026"`],
    ['relearn', `relearn ${M} workspace=${W} signals=${S2}:pressure range=yesterday dataspec-name=nightly`],
    ['score', `score ${M} workspace=${W} signals=${S1} range="last 3 days" prefix=pump-7/anomaly`],
    ['score', `score ${M} workspace=${W} dataspec=${X.dataspec} outputs=${S2}:score,${S1} description="two"`],
    [
      'eval',
      `eval ${X.assessment} model=${M} datastream=${X.datastream} entities=pump-1,pump-2,pump-1 range="Nov 20 to Nov 21" name=backfill`,
    ],
  ];

  it.each(cases)('%s: `%s`', (kind, command) => {
    const out = submit(kind, formOf(kind, command));
    if (!out.ok) throw new Error(`${command}: ${JSON.stringify(out.errors)}`);
    expect(out.request).toStrictEqual(fromCommand(command));
    // The command line shown under the form's result runs the same operation again.
    const shown = commandLineOf(kind, fieldsFromCommand(kind, commandArguments(command)!.given));
    expect(fromCommand(shown), shown).toStrictEqual(out.request);
  });
});

describe('the command takes what the form takes', () => {
  it('`dataspec-name=` names the new dataspec, which is otherwise named after the flow', () => {
    const named = fromCommand(
      `learn workspace=${X.workspace} signals=${X.signal} range=yesterday dataspec-name=base`,
    );
    expect(named.kind === 'learn' && named.data).toMatchObject({ kind: 'inline', dataspecName: 'base' });
    const unnamed = fromCommand(
      `learn workspace=${X.workspace} signals=${X.signal} range=yesterday name=mine`,
    );
    expect(unnamed.kind === 'learn' && unnamed.data).toMatchObject({ kind: 'inline', dataspecName: 'mine' });
    const both = parseCommand(`learn workspace=${X.workspace} dataspec=${X.dataspec} dataspec-name=base`);
    expect(both).toMatchObject({ ok: false, message: expect.stringMatching(/`dataspec=` reuses one/) });
    for (const id of ['learn', 'relearn', 'score'])
      expect(usageOf(REGISTRY.find((e) => e.command.id === id)!)).toContain('dataspec-name=');
  });

  it('a description is as long by command as by form, and one longer is refused by both', () => {
    const base = `learn workspace=${X.workspace} dataspec=${X.dataspec}`;
    const long = 'd'.repeat(2000);
    expect(fromCommand(`${base} description="${long}"`)).toMatchObject({ description: long });
    expect(parseCommand(`${base} description="${long}d"`)).toMatchObject({
      ok: false,
      message: '`description=` is too long (at most 2000 characters).',
    });
    const form = formOf('learn', base);
    expect(submit('learn', { ...form, description: long })).toMatchObject({ request: { description: long } });
    expect(submit('learn', { ...form, description: `${long}d` })).toEqual({
      ok: false,
      errors: { description: 'The description is 2001 characters; keep it to 2000.' },
    });
  });
});
