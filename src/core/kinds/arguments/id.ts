import { article, type IdShape, idsOf } from '../../catalog/kind.js';
import { idGiven, nounOf } from '../../grammar/args.js';
import type { ArgumentKind } from '../kind.js';
import { clipForMessage } from './messages.js';

/** Why a form's text is no ID of this shape, or nothing when it is one. `noun` names it: "workspace". */
export function idError(noun: string, text: string, ids: IdShape): string | undefined {
  if (text === '') return `The ${noun} ID is required, e.g. ${ids.example}.`;
  if (!ids.is(text))
    return `"${clipForMessage(text)}" is not a valid ${noun} ID: IDs are ${ids.described}, e.g. ${ids.example}.`;
  return undefined;
}

const titleOf = (noun: string) => (/\bID\b/.test(noun) ? noun : `${noun} ID`);

/**
 * One resource, by its ID or, where its lookup names a kind of resource, by its name (looked up in the
 * catalog before the command runs). Its form field picks one from the catalog; without a kind of
 * resource behind it, it is a text field that takes an ID.
 */
export const ID: ArgumentKind<string> = {
  name: 'id',
  shape: () => '<id>',
  parse: idGiven,
  element: (arg) =>
    arg.lookup?.names ? { input: 'select', resource: arg.lookup.names, multi: false } : { input: 'text' },
  fromForm(arg, r) {
    if (!r.text && !r.required) return undefined;
    const problem = idError(nounOf(arg), r.text, idsOf(arg.lookup));
    if (!problem) return r.text;
    // A field that picks from the catalog finds a resource by its name as well: no need of its ID.
    const names = arg.lookup?.names;
    r.errors[r.block] = names
      ? `${problem} Or pick ${article(names.one)} ${names.one} from the list: type its name.`
      : problem;
    return undefined;
  },
  toForm: (text) => text,
  toCommand: (text) => text,
  samples: {
    good: ['1030000000000000001', '1353853719423311872'],
    bad: ['123', '1e3', '-1', '9'.repeat(40)],
  },
  step: { title: (arg) => titleOf(nounOf(arg)), note: '' },
};
