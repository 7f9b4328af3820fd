import { COMMANDS, type CommandSpec } from './commands.js';
import { normalizeKey, type Token, tokenize } from './tokenize.js';

/**
 * The whole command a person can copy and run, from what they typed and the one `key=value` a refusal
 * offers for the value it could not read (`range="yesterday 9am to 5pm"`): their command with that value
 * replaced, or the option added when it came from elsewhere (a channel default), so that nothing else they
 * typed is lost. The value's extent is read as the parser reads it: a free-text option (`range=last 3
 * days`) runs on over the words after it until the next `key=value`. Undefined when `fix` is not one
 * `key=value` or the typed text cannot be split (the surface then shows the fix as it is).
 */
export function correctedCommand(typed: string, fix: string): string | undefined {
  const fixed = tokenize(fix);
  const fixToken = fixed.ok && fixed.tokens.length === 1 ? fixed.tokens[0] : undefined;
  if (fixToken?.kind !== 'keyvalue') return undefined;
  // As typed: after `/tsai` or `@tsai`, or bare (the bot's Messages tab).
  const lead = /^[/@]\S+/.exec(typed.trim())?.[0] ?? '';
  const rest = tokenize(typed.trim().slice(lead.length));
  if (!rest.ok) return undefined;
  const tokens = rest.tokens;
  const words = tokens.map((t) => (t.kind === 'positional' && !t.quoted ? t.value.toLowerCase() : ''));
  const spec = [...COMMANDS]
    .sort((a, b) => b.words.length - a.words.length)
    .find((c) => c.words.every((w, i) => words[i] === w));
  if (!spec) return undefined;
  const key = canonical(spec, fixToken.key);
  const at = tokens.findIndex(
    (t, i) => i >= spec.words.length && t.kind === 'keyvalue' && canonical(spec, t.key) === key,
  );
  const out: Token[] = [...tokens];
  if (at < 0) out.push(fixToken);
  else {
    let end = at + 1;
    if (spec.freeText?.includes(key)) while (out[end]?.kind === 'positional') end++;
    out.splice(at, end - at, fixToken);
  }
  return [...(lead ? [lead] : []), ...out.map((t) => t.raw)].join(' ');
}

const canonical = (spec: CommandSpec, key: string) => {
  const k = normalizeKey(key);
  return spec.aliases?.[k] ?? k;
};
