import { isValidTimeZone, wallAt } from '../../time/zone.js';
import { checkPattern, type Rule } from './rule.js';

/**
 * Reads "when" as people say it to Slack's `/remind` ("every weekday at 9am", "every Monday at 7",
 * "every 8 hours", "every other week", "on the 1st of every month at 06:00", "at 18:00 on weekdays",
 * "every minute"), or a five-field cron pattern, into a rule in the creator's zone unless the text ends
 * with a zone ("… in Europe/Berlin", "… UTC"). What it cannot read exactly is refused: the bot never
 * guesses when something runs.
 *
 * Choices: a day phrase without a time runs at 09:00, as `/remind` does; "every N hours" and
 * "every N minutes" are steps of the clock from midnight (every 8 hours: 00:00, 08:00, 16:00, the
 * shifts), so N must divide a day or an hour; "every other week" runs in the week it was made and every
 * second week after, on the day it was made unless a day is named; a bare hour is a 24-hour time
 * ("every Monday at 7" is 07:00).
 */
export type WhenOutcome =
  | { ok: true; rule: Rule; words: string }
  | { ok: false; message: string; example: string };

export const WHEN_EXAMPLES = [
  'every weekday at 06:00',
  'every Monday at 7',
  'every 8 hours',
  'every other week on Friday at 16:00',
  'on the 1st of every month at 06:00',
  'at 18:00 on weekdays',
  'every minute',
  '0 6 * * 1-5',
];

const EXAMPLE = '/tsai schedule "every weekday at 06:00" flows';

const DAYS: [RegExp, number, string][] = [
  [/^mon(day)?s?$/, 1, 'Monday'],
  [/^tue(s|sday)?s?$/, 2, 'Tuesday'],
  [/^wed(nesday)?s?$/, 3, 'Wednesday'],
  [/^thu(r|rs|rsday)?s?$/, 4, 'Thursday'],
  [/^fri(day)?s?$/, 5, 'Friday'],
  [/^sat(urday)?s?$/, 6, 'Saturday'],
  [/^sun(day)?s?$/, 0, 'Sunday'],
];

const refuse = (message: string): WhenOutcome => ({ ok: false, message, example: EXAMPLE });

const hhmm = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;

interface Time {
  hour: number;
  minute: number;
}

/** "9am", "9:30 pm", "18:00", "7", "noon", "midnight". */
function readTime(t: string): Time | string {
  if (t === 'noon') return { hour: 12, minute: 0 };
  if (t === 'midnight') return { hour: 0, minute: 0 };
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(t);
  if (!m) return `\`${t}\` is not a time of day: write it like 06:00, 9am or 6:30pm.`;
  let hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  const half = m[3]?.[0];
  if (half) {
    if (hour < 1 || hour > 12) return `\`${t}\` is not a time of day: with am or pm the hour is 1 to 12.`;
    hour = (hour % 12) + (half === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return `\`${t}\` is not a time of day: hours go to 23, minutes to 59.`;
  return { hour, minute };
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Reads a list of days: "monday", "mon and thu", "tuesdays, thursdays". */
function readDays(text: string): { dows: number[]; names: string[] } | undefined {
  const parts = text
    .split(/\s*(?:,|\band\b|&|\+)\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return undefined;
  const dows: number[] = [];
  const names: string[] = [];
  for (const p of parts) {
    const day = DAYS.find(([re]) => re.test(p));
    if (!day) return undefined;
    if (!dows.includes(day[1])) {
      dows.push(day[1]);
      names.push(day[2]);
    }
  }
  return { dows, names };
}

const listWords = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

const FIVE_FIELDS = /^\s*(\S+\s+){4}\S+\s*$/;
const CRON_CHARS = /^[\d*/,\-?LW#A-Za-z]+$/;

/** Reads `text` into a rule in `zone` (the creator's), `now` telling the weekday "every other week" starts on. */
export function readWhen(text: string, o: { zone: string; now: number }): WhenOutcome {
  let rest = text
    .trim()
    .replace(/^["“”']+|["“”']+$/g, '')
    .trim();
  if (!rest) return refuse('Say when it runs, e.g. "every weekday at 06:00".');
  if (rest.length > 120)
    return refuse('That "when" is too long: say it in a few words, e.g. "every weekday at 06:00".');
  let zone = o.zone;
  const named = /(?:^|\s)(?:in\s+)?([A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+|UTC|GMT)(?:\s+time)?$/i.exec(rest);
  if (named) {
    const candidate = /^(utc|gmt)$/i.test(named[1]!) ? 'UTC' : named[1]!;
    if (!isValidTimeZone(candidate))
      return refuse(
        `\`${named[1]}\` is not a time zone: name one like Europe/Berlin, America/New_York or UTC.`,
      );
    zone = candidate;
    rest = rest.slice(0, named.index).trim();
  }

  const cronLike = rest.split(/\s+/).every((f) => CRON_CHARS.test(f)) && /[\d*]/.test(rest);
  if (FIVE_FIELDS.test(rest) && cronLike) {
    const pattern = rest.split(/\s+/).join(' ');
    const problem = checkPattern(pattern, zone);
    if (problem) return refuse(`\`${pattern}\` is not a cron pattern the bot can read (${problem}).`);
    return { ok: true, rule: { pattern, zone }, words: `on the cron pattern \`${pattern}\`` };
  }
  if (/^(\S+\s+){5,6}\S+$/.test(rest) && cronLike)
    return refuse(
      'Cron patterns here have five fields (minute hour day month weekday), e.g. `0 6 * * 1-5`: nothing runs more often than once a minute.',
    );

  let phrase = rest.toLowerCase().replace(/\s+/g, ' ');
  let time: Time | undefined;
  const timeMatch =
    /(?:^|\s)(?:at\s+)(noon|midnight|\d{1,2}(?:[:.h]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)(?=\s|$)/.exec(
      phrase,
    ) ?? /(?:^|\s)(noon|midnight|\d{1,2}[:.]\d{2}|\d{1,2}\s*(?:am|pm))(?=\s|$)/.exec(phrase);
  if (timeMatch) {
    const t = readTime(timeMatch[1]!.trim());
    if (typeof t === 'string') return refuse(t);
    time = t;
    phrase = `${phrase.slice(0, timeMatch.index)} ${phrase.slice(timeMatch.index + timeMatch[0].length)}`
      .replace(/\s+/g, ' ')
      .trim();
  }
  const read = readPhrase(phrase, time, o.now, zone);
  if (typeof read === 'string') return refuse(read);
  return { ok: true, rule: { ...read.rule, zone }, words: read.words };
}

type Read = { rule: Omit<Rule, 'zone'>; words: string } | string;

function readPhrase(phrase: string, time: Time | undefined, now: number, zone: string): Read {
  const at = time ?? { hour: 9, minute: 0 };
  const atWords = `at ${hhmm(at.hour, at.minute)}`;
  const daily = (dow: string, words: string): Read => ({
    rule: { pattern: `${at.minute} ${at.hour} * * ${dow}`, at },
    words: `${words} ${atWords}`,
  });
  const noTime = (what: string) =>
    time ? `"${what}" runs on the clock's steps, so it takes no time of day.` : undefined;

  if (/^(every|each) minute$/.test(phrase))
    return noTime('every minute') ?? { rule: { pattern: '* * * * *' }, words: 'every minute' };
  const m1 = /^every (\d{1,2}) min(ute)?s?$/.exec(phrase);
  if (m1) {
    const m = m1;
    const n = Number(m[1]);
    if (n < 1 || 60 % n !== 0)
      return `Every ${n} minutes does not divide an hour: use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30.`;
    return (
      noTime(`every ${n} minutes`) ?? {
        rule: { pattern: n === 1 ? '* * * * *' : `*/${n} * * * *` },
        words: `every ${n} minutes`,
      }
    );
  }
  if (/^((every|each) hour|hourly)$/.test(phrase))
    return noTime('every hour') ?? { rule: { pattern: '0 * * * *' }, words: 'every hour, on the hour' };
  const m2 = /^every (\d{1,2}) h(ou)?rs?$/.exec(phrase);
  if (m2) {
    const m = m2;
    const n = Number(m[1]);
    if (n < 1 || 24 % n !== 0) return `Every ${n} hours does not divide a day: use 1, 2, 3, 4, 6, 8 or 12.`;
    const hours = Array.from({ length: 24 / n }, (_, i) => hhmm(i * n, 0));
    const shown = hours.length <= 4 ? ` (${hours.join(', ')})` : ', from midnight';
    return (
      noTime(`every ${n} hours`) ?? {
        rule: { pattern: n === 1 ? '0 * * * *' : `0 */${n} * * *` },
        words: `every ${n} hours${shown}`,
      }
    );
  }
  if (/^((every|each) day|daily|every morning|every evening|every night)$/.test(phrase))
    return daily('*', 'every day');
  if (
    /^((every|each|on) (weekday|work ?day|business day)s?|weekdays|mon(day)?\s*-\s*fri(day)?)$/.test(phrase)
  )
    return daily('1-5', 'every weekday');
  if (/^((every|each|on) weekends?( days?)?|weekends)$/.test(phrase))
    return daily('0,6', 'every Saturday and Sunday');

  const other =
    /^(?:every other|every 2nd|every second|every two|biweekly|fortnightly|every fortnight)(?: (week|weeks))?(?: on)?(?: (.+))?$/.exec(
      phrase,
    );
  if (other) {
    const today = wallAt(zone, now);
    const todayDow = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
    const named = other[2] ? readDays(other[2]) : undefined;
    if (other[2] && !named)
      return `\`${other[2]}\` is not a day of the week: say e.g. "every other week on Friday".`;
    const days = named ?? { dows: [todayDow], names: [DAYS.find((d) => d[1] === todayDow)![2]] };
    // The Monday of this week, locally: the weeks that run are this one and every second one after.
    const monday = new Date(Date.UTC(today.year, today.month - 1, today.day - ((todayDow + 6) % 7)));
    return {
      rule: {
        pattern: `${at.minute} ${at.hour} * * ${days.dows.join(',')}`,
        at,
        everyOtherWeekFrom: monday.toISOString().slice(0, 10),
      },
      words: `every other week on ${listWords(days.names)} ${atWords}`,
    };
  }
  const m3 = /^(?:(?:every|each) week|weekly)(?: on (.+))?$/.exec(phrase);
  if (m3) {
    const m = m3;
    const today = wallAt(zone, now);
    const todayDow = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
    const named = m[1] ? readDays(m[1]) : undefined;
    if (m[1] && !named) return `\`${m[1]}\` is not a day of the week: say e.g. "every week on Monday".`;
    const days = named ?? { dows: [todayDow], names: [DAYS.find((d) => d[1] === todayDow)![2]] };
    return daily(days.dows.join(','), `every ${listWords(days.names)}`);
  }
  const m4 = /^(?:(?:every|each|on) )?(.+)$/.exec(phrase);
  if (m4) {
    const m = m4;
    const days = readDays(m[1]!);
    if (days) return daily(days.dows.join(','), `every ${listWords(days.names)}`);
  }

  const monthly =
    /^(?:on )?(?:the )?(\d{1,2})(?:st|nd|rd|th)?(?: day)? of (?:every|each|the) month$/.exec(phrase) ??
    /^(?:every|each) month on the (\d{1,2})(?:st|nd|rd|th)?$/.exec(phrase) ??
    /^monthly(?: on the (\d{1,2})(?:st|nd|rd|th)?)?$/.exec(phrase);
  if (monthly) {
    const day = Number(monthly[1] ?? 1);
    if (day < 1 || day > 31)
      return `The ${day}th is not a day of a month: say 1 to 31, or "the last day of every month".`;
    const warn = day > 28 ? ' (in months without that day it does not run)' : '';
    return {
      rule: { pattern: `${at.minute} ${at.hour} ${day} * *`, at },
      words: `on the ${ordinal(day)} of every month ${atWords}${warn}`,
    };
  }
  if (
    /^(?:on )?the last day of (?:every|each|the) month$|^(?:every|each) month on the last day$/.test(phrase)
  )
    return {
      rule: { pattern: `${at.minute} ${at.hour} L * *`, at },
      words: `on the last day of every month ${atWords}`,
    };

  if (phrase === '' && time)
    return `A schedule repeats: say how often too, e.g. "every day at ${hhmm(time.hour, time.minute)}".`;
  return `The bot cannot read "${phrase}" as a time that repeats. Say it as you would to /remind, e.g. "every weekday at 06:00", "every Monday at 7", "every 8 hours", "on the 1st of every month at 06:00", or as cron, e.g. "0 6 * * 1-5".`;
}
