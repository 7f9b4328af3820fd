/** Slack's date tokens and entities, without the DOM: the page renders them, tests check them in Node. */

export function decodeEntities(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const ORDINAL = (n: number) => {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

/**
 * Slack's `<!date^epoch^format|fallback>`: the format's tokens in the viewer's zone ({date_num}, {date},
 * {date_short}, {date_long}, their `_pretty` forms, {time}, {time_secs}, {ago}); the fallback when the
 * epoch is unreadable.
 */
export function slackDate(
  special: string,
  fallback: string | undefined,
  timeZone: string,
  nowMs = Date.now(),
): string {
  const [, epochText = '', format = ''] = special.split('^');
  const epoch = Number(epochText);
  if (!/^\d+$/.test(epochText) || !Number.isFinite(epoch)) return decodeEntities(fallback ?? special);
  const at = new Date(epoch * 1000);
  const part = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone, ...o }).format(at);
  const dayKey = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);
  const day = Number(part({ day: 'numeric' }));
  const month = part({ month: 'long' });
  const year = part({ year: 'numeric' });
  const date = `${month} ${ORDINAL(day)}, ${year}`;
  const dateShort = `${part({ month: 'short' })} ${day}, ${year}`;
  const dateLong = `${part({ weekday: 'long' })}, ${date}`;
  const pretty = (plain: string) => {
    const diff = Math.round((Date.parse(dayKey(at)) - Date.parse(dayKey(new Date(nowMs)))) / 86_400_000);
    return diff === 0 ? 'Today' : diff === -1 ? 'Yesterday' : diff === 1 ? 'Tomorrow' : plain;
  };
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(at);
  const timeSecs = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(at);
  const minutes = Math.round((nowMs - at.getTime()) / 60_000);
  const span = Math.abs(minutes);
  const unit = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const amount =
    span < 60
      ? unit(span, 'minute')
      : span < 1440
        ? unit(Math.round(span / 60), 'hour')
        : unit(Math.round(span / 1440), 'day');
  const ago = span < 1 ? 'just now' : `${amount} ${minutes > 0 ? 'ago' : 'from now'}`;
  const tokens: Record<string, string> = {
    date_num: dayKey(at),
    date,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: pretty(date),
    date_short_pretty: pretty(dateShort),
    date_long_pretty: pretty(dateLong),
    time,
    time_secs: timeSecs,
    ago,
  };
  return decodeEntities(format).replace(/\{(\w+)\}/g, (all, name: string) => tokens[name] ?? all);
}
