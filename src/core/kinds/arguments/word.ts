import { Bad, MAX_TEXT, nounOf } from '../../grammar/args.js';
import type { Argument, ArgumentKind } from '../kind.js';
import { clipForMessage } from './messages.js';

const eg = (arg: Argument<string>) => (arg.example ? `, e.g. ${arg.example}` : '');

/** One word (an output prefix): no spaces, at most `maxLength` characters. */
export const WORD: ArgumentKind<string> = {
  name: 'word',
  shape: () => '<word>',
  parse(text, arg) {
    const max = arg.maxLength ?? MAX_TEXT;
    if (/\s/.test(text) || [...text].length > max) {
      const example = arg.example ? `, e.g. \`${arg.key}=${arg.example}\`` : '';
      throw new Bad(`\`${arg.key}=\` must be one word of at most ${max} characters${example}.`, arg.key);
    }
    return text;
  },
  element: () => ({ input: 'text' }),
  fromForm(arg, r) {
    if (!r.text) {
      if (r.required) r.errors[r.block] = `Give a ${nounOf(arg)}${eg(arg)}`;
      return undefined;
    }
    const max = arg.maxLength ?? MAX_TEXT;
    if (/\s/.test(r.text) || r.text.length > max) {
      r.errors[r.block] =
        `"${clipForMessage(r.text)}" cannot be a ${arg.key}: one word of at most ${max} characters${eg(arg)}`;
      return undefined;
    }
    return r.text;
  },
  toForm: (text) => text,
  toCommand: (text) => text,
  samples: { good: ['pump3-scores', 'pump-7/anomaly'], bad: ['two words', 'p'.repeat(101)] },
  step: { title: nounOf, note: '' },
};
