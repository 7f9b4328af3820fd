import { Bad, MAX_TEXT, nounOf } from '../../grammar/args.js';
import type { ArgumentKind } from '../kind.js';

/** Free text (a name, a description, a reason): at most `maxLength` characters (200 unless said). */
export const TEXT: ArgumentKind<string> = {
  name: 'text',
  shape: () => '<text>',
  parse(text, arg) {
    const max = arg.maxLength ?? MAX_TEXT;
    if ([...text].length > max)
      throw new Bad(`\`${arg.key}=\` is too long (at most ${max} characters).`, arg.key);
    return text;
  },
  element: (arg) => (arg.field?.multiline ? { input: 'text', multiline: true } : { input: 'text' }),
  fromForm(arg, r) {
    const max = arg.maxLength ?? MAX_TEXT;
    if (r.text.length > max) {
      r.errors[r.block] = `The ${nounOf(arg)} is ${r.text.length} characters; keep it to ${max}.`;
      return undefined;
    }
    return r.text || undefined;
  },
  toForm: (text) => text,
  // A command is one line: a form's several lines are joined.
  toCommand: (text) => text.replace(/\s*\n\s*/g, ' '),
  samples: { good: ['pump-3 retrain', 'Trials for the new pumps'], bad: ['x'.repeat(2001)] },
  step: { title: nounOf, note: '' },
};
