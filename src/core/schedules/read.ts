import { COMMANDS, specById } from '../grammar/commands.js';
import type { OpFailure } from '../outcome.js';
import { SCHEDULE_CHANGES, SCHEDULE_EXAMPLE, type ScheduleChange } from './commands.js';

export type { ScheduleChange };

/** What `/tsai schedule …`, `/tsai schedules` and `/tsai digest …` ask for. */
export type SchedulingRequest =
  | { kind: 'create'; whenText: string; name?: string; commandText: string }
  | { kind: 'digest'; whenText: string }
  | { kind: 'digest-now' }
  | { kind: 'change'; action: ScheduleChange; ref: string }
  | { kind: 'list'; page: number };

const QUOTED = /^["“”'‘’]([^"“”'‘’]*)["“”'‘’]\s*/;

/** A refusal of `/tsai schedule …`, with its usage and an example. */
export const refusal = (message: string, example = SCHEDULE_EXAMPLE): OpFailure => ({
  ok: false,
  message,
  example,
  usage: specById('schedule').usage,
});

/** The first word of every command: where an unquoted "when" ends. */
const commandWords = () => new Set(COMMANDS.map((c) => c.words[0]!));

/** Each word that names a change (its own and the ones that mean the same) -> the change. */
const CHANGE_OF: ReadonlyMap<string, ScheduleChange> = new Map(
  Object.entries(SCHEDULE_CHANGES).flatMap(([word, c]) =>
    [word, ...c.also].map((w) => [w, word as ScheduleChange] as const),
  ),
);

/** Reads the text after `schedule`, `schedules` or `digest`. */
export function readScheduling(id: string, text: string): SchedulingRequest | OpFailure {
  const t = text.trim();
  if (id === 'schedules') {
    if (!t) return { kind: 'list', page: 1 };
    const page = /^(?:page\s+)?(\d{1,6})$/i.exec(t)?.[1];
    if (page && Number(page) >= 1) return { kind: 'list', page: Number(page) };
    return refusal(
      '`/tsai schedules` takes at most a page number after it: it lists this channel’s schedules, 20 to a page.',
      '/tsai schedules',
    );
  }
  if (id === 'digest') {
    if (/^now$/i.test(t)) return { kind: 'digest-now' };
    const when = QUOTED.exec(t)?.[1] ?? t;
    if (!when)
      return refusal('Say when the digest is posted, or `now`.', '/tsai digest "every weekday at 07:00"');
    return { kind: 'digest', whenText: when };
  }
  const change = /^(\S+)\s+(.+)$/.exec(t);
  const action = change && CHANGE_OF.get(change[1]!.toLowerCase());
  if (change && action)
    return { kind: 'change', action, ref: change[2]!.trim().replace(/^["“”']|["“”']$/g, '') };
  if (!t) return refusal('Say when it runs and what: the "when" in quotes, then the command.');
  let whenText: string;
  let rest: string;
  const quoted = QUOTED.exec(t);
  if (quoted) {
    whenText = quoted[1]!;
    rest = t.slice(quoted[0].length);
  } else {
    // Without quotes, the "when" runs up to the first word that starts a command.
    const words = t.split(/\s+/);
    const at = words.findIndex((w, i) => i > 0 && commandWords().has(w.toLowerCase()));
    if (at < 0) return refusal('Put the "when" in quotes, then the command to run.');
    whenText = words.slice(0, at).join(' ');
    rest = t.slice(t.indexOf(words[at]!, whenText.length));
  }
  let name: string | undefined;
  const named = /^name=["“”']([^"“”']+)["“”']\s*|^name=(\S+)\s*/.exec(rest);
  if (named) {
    name = (named[1] ?? named[2])!.trim().slice(0, 80);
    rest = rest.slice(named[0].length);
  }
  const commandText = rest.trim().replace(/^\/tsai\s+/, '');
  if (!commandText) return refusal(`Say which command runs "${whenText}", after the quotes.`);
  return { kind: 'create', whenText, ...(name ? { name } : {}), commandText };
}
