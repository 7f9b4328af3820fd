import { nameList, nounOf } from '../../grammar/args.js';
import type { ArgumentKind } from '../kind.js';
import { itemsOf } from './messages.js';

/**
 * Plain names, comma-separated, each once (an EVAL's entities): taken as written, no catalog behind them.
 * A form takes them one a line or after commas.
 */
export const NAMES: ArgumentKind<string[]> = {
  name: 'names',
  shape: () => '<a,b,…>',
  parse: (text, arg) => nameList(text, arg.key, arg.example ?? 'pump-1,pump-2'),
  element: () => ({ input: 'text', multiline: true }),
  fromForm(arg, r) {
    if (!r.text && !r.required) return undefined;
    const items = [...new Set(itemsOf(r.text))];
    if (items.length === 0) {
      r.errors[r.block] = `Give at least one ${nounOf(arg)}, e.g. pump-7, pump-8`;
      return undefined;
    }
    return items.join(',');
  },
  toForm: (text) => itemsOf(text).join(', '),
  toCommand: (text) => itemsOf(text).join(','),
  samples: { good: ['pump-1', 'pump-1,pump-2'], bad: ['a,,b', ','] },
  step: { title: nounOf, note: '' },
};
