/**
 * What of a person's typed text may be shown back to them, logged or kept. A service token belongs only
 * in the Connect form; typed anywhere else it has already passed through Slack, and the bot must not
 * spread it further: not in a reply (a channel's response can be seen by others on screen), not in the
 * store, not in a log.
 */

/** The commands that never take anything after their word: whatever follows may be a pasted token. */
const TAKES_NOTHING = new Set(['connect', 'disconnect', 'whoami', 'setup']);

/** Words that look like a secret: Slack's token prefixes, or a long run of letters and digits. */
const SECRET_PREFIX = /^(xox[abpre]|xapp|tsai)-/i;
/** A random-looking run: 24 or more letters and digits without a separator, mixing both. */
const RANDOM_RUN = /[A-Za-z0-9+/]{24,}/g;

/**
 * Whether one word of typed text looks like a token or a key: a secret's prefix, or a long random-looking
 * run. Never true for a service ID (digits only) or a hyphenated name.
 */
export function looksSecret(word: string): boolean {
  if (SECRET_PREFIX.test(word) && word.length >= 16) return true;
  return (word.match(RANDOM_RUN) ?? []).some((run) => /[A-Za-z]/.test(run) && /\d/.test(run));
}

/** A run of characters that could be one token, inside any text. */
const RUN = /[A-Za-z0-9._~+/=-]{16,}/g;

/** `text` with every token-like run replaced by a note saying so. */
export function maskSecrets(text: string): string {
  return text.replace(RUN, (w) => (looksSecret(w) ? '[a token-like value, not shown]' : w));
}

/**
 * A command as it may be shown back: after `connect`, `disconnect` or `whoami` nothing is shown (those
 * take nothing, so whatever follows may be a token), and anywhere else a token-like value is replaced by
 * a note saying so. `/tsai connect abc…` becomes `/tsai connect [the text after connect, not shown]`.
 */
export function secretSafe(commandText: string): string {
  const m = /^(\S+\s+)?(connect|disconnect|whoami|setup)\b(.*)$/is.exec(commandText.trim());
  if (m && TAKES_NOTHING.has(m[2]!.toLowerCase()) && m[3]!.trim() !== '')
    return `${m[1] ?? ''}${m[2]} [the text after ${m[2]}, not shown]`;
  return maskSecrets(commandText);
}

/** The refusal of `/tsai connect <anything>`: it never repeats what followed. */
export function takesNothingAfter(word: string): string {
  return word === 'connect'
    ? "`/tsai connect` takes nothing after it, so the text after `connect` was not used, kept or shown. If it was a service token, it has passed through Slack: make a new one in the service's user interface, and paste it into the private form that `/tsai connect` alone opens."
    : `\`/tsai ${word}\` takes nothing after it, so the text after \`${word}\` was not used, kept or shown. Type \`/tsai ${word}\` alone.`;
}
