import { Bad, nounOf } from '../../../src/core/grammar/args.js';
import type { ArgumentKind } from '../../../src/core/kinds/kind.js';

/**
 * A new kind of argument, declared by a test alone: a length of time as people write it in their other
 * tools (`6h`, `90m`, `1h30m`, `2d`), read as seconds.
 */

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** The seconds a duration stands for; undefined when it is none (or none at all). */
export function secondsOf(text: string): number | undefined {
  const t = text.toLowerCase().replace(/\s+/g, '');
  if (!/^(\d{1,4}[smhdw])+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d{1,4})([smhdw])/g)) total += Number(m[1]) * UNIT[m[2]!]!;
  return total > 0 ? total : undefined;
}

const HOW = 'write it like 6h, 90m or 1h30m';

export const DURATION: ArgumentKind<number> = {
  name: 'duration',
  shape: () => '<duration>',
  parse(text, arg) {
    const seconds = secondsOf(text);
    if (seconds === undefined)
      throw new Bad(`\`${text}\` is not a ${nounOf(arg)}: ${HOW}, e.g. \`${arg.key}=6h\`.`, arg.key);
    return seconds;
  },
  element: () => ({ input: 'text' }),
  fromForm(arg, r) {
    if (r.text === '') {
      if (r.required) r.errors[r.block] = `Give a ${nounOf(arg)}: ${HOW}.`;
      return undefined;
    }
    if (secondsOf(r.text) !== undefined) return r.text;
    r.errors[r.block] = `"${r.text.slice(0, 40)}" is not a ${nounOf(arg)}: ${HOW}.`;
    return undefined;
  },
  toForm: (text) => text,
  toCommand: (text) => text.replace(/\s+/g, ''),
  samples: { good: ['6h', '90m', '1h30m', '2d'], bad: ['0h', 'h', 'six hours', '-1h', '99999w'] },
  step: { title: (arg) => nounOf(arg), note: ` Write it like 6h, 90m or 1h30m.` },
};
