// An independent computation of the instants the time-range rules give, in Python's zoneinfo (the IANA
// database as the operating system has it), for tests that check src/time against something that shares
// none of its code, not even Intl. Python runs once per batch.
//
// A spec names an instant in words close to the rules (docs/time-ranges.md):
// - `now`; `now-2h`, `now-90m`, `now-30s` (exact durations back); `now-3d`, `now-2w`, `now-1mo`, `now-1y`
//   (the same wall-clock time that many calendar days or months back, in the zone);
// - `H0`, `H-1`: the start of the local hour that now (or now an exact hour back) is in;
// - a local day and a wall-clock time on it, `<day>[ HH:MM[:SS]]`, where <day> is `D<n>` (today + n),
//   `W<n>` (this ISO week's Monday + n weeks), `M<n>` (the 1st of this month + n months), `Y<n>` (1 January
//   of this year + n years), `ISOW<year>w<week>` (the Monday of that ISO week), `ISOWR<week>` (the Monday
//   of the most recent ISO week of that number that has begun), `MONR<month>` (the 1st of the most recent
//   such month that has begun), `SHIFT` (the start of the shift going on now, of 06:00/14:00/22:00), or
//   `YYYY-MM-DD`; each day may be followed by `+<n>d`/`-<n>d`/`+<n>m` steps on the calendar;
// - `abs <ISO 8601 with Z or an offset, up to 9 fraction digits>`: that instant;
// - `<spec> +<n>h`: an exact number of hours after the instant another spec names.
// Wall-clock times use fold 0: a time skipped in spring is read with the offset before the change (so it
// lands the gap later), a time that happens twice is the first.
import { execFileSync } from 'node:child_process';

const PROGRAM = String.raw`
import sys, json, re
from datetime import datetime, date, timedelta, timezone
from zoneinfo import ZoneInfo

def add_months(d, n):
    total = d.year * 12 + (d.month - 1) + n
    y, m = divmod(total, 12)
    m += 1
    last = (date(y + (m // 12), m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(d.day, last))

def wall_ns(zone, d, h=0, mi=0, s=0):
    dt = datetime(d.year, d.month, d.day, h, mi, s, tzinfo=ZoneInfo(zone), fold=0)
    off = int(dt.utcoffset().total_seconds())
    naive = (datetime(d.year, d.month, d.day, h, mi, s) - datetime(1970, 1, 1))
    secs = naive.days * 86400 + naive.seconds
    return (secs - off) * 10**9

def local_of(zone, ns):
    secs, rest = divmod(ns, 10**9)
    return datetime.fromtimestamp(secs, timezone.utc).astimezone(ZoneInfo(zone)), rest

def abs_ns(text):
    m = re.match(r'^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:\d\d)$', text)
    y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
    s = int(m.group(6) or 0)
    frac = int((m.group(7) or '').ljust(9, '0') or 0)
    z = m.group(8)
    off = 0 if z == 'Z' else (1 if z[0] == '+' else -1) * (int(z[1:3]) * 60 + int(z[4:6]))
    naive = datetime(y, mo, d, h, mi, s) - datetime(1970, 1, 1)
    return ((naive.days * 86400 + naive.seconds) - off * 60) * 10**9 + frac

def day_of(zone, now_ns, word):
    today = local_of(zone, now_ns)[0].date()
    m = re.match(r'^(D|W|M|Y)(-?\d+)|^ISOW(\d{4})w(\d+)|^ISOWR(\d+)|^MONR(\d+)|^(\d{4})-(\d\d)-(\d\d)', word)
    rest = word[m.end():]
    if m.group(1):
        kind, n = m.group(1), int(m.group(2))
        if kind == 'D': d = today + timedelta(days=n)
        elif kind == 'W': d = today - timedelta(days=today.isoweekday() - 1) + timedelta(days=7 * n)
        elif kind == 'M': d = add_months(date(today.year, today.month, 1), n)
        else: d = date(today.year + n, 1, 1)
    elif m.group(3):
        d = date.fromisocalendar(int(m.group(3)), int(m.group(4)), 1)
    elif m.group(5):
        week = int(m.group(5))
        year = today.isocalendar()[0]
        d = None
        for y in range(year, year - 9, -1):
            try:
                monday = date.fromisocalendar(y, week, 1)
            except ValueError:
                continue
            if monday <= today:
                d = monday
                break
    elif m.group(6):
        month = int(m.group(6))
        d = date(today.year if month <= today.month else today.year - 1, month, 1)
    else:
        d = date(int(m.group(7)), int(m.group(8)), int(m.group(9)))
    for step in re.findall(r'([+-]\d+)([dm])', rest):
        d = d + timedelta(days=int(step[0])) if step[1] == 'd' else add_months(d, int(step[0]))
    return d

def instant(zone, now_ns, spec):
    spec = spec.strip()
    m = re.match(r'^(.*) \+(\d+)h$', spec)
    if m:
        return instant(zone, now_ns, m.group(1)) + int(m.group(2)) * 3600 * 10**9
    if spec == 'now':
        return now_ns
    if spec.startswith('cut '):
        return min(now_ns, instant(zone, now_ns, spec[4:]))
    if spec.startswith('abs '):
        return abs_ns(spec[4:])
    m = re.match(r'^now-(\d+)(s|m|h)$', spec)
    if m:
        return now_ns - int(m.group(1)) * {'s': 1, 'm': 60, 'h': 3600}[m.group(2)] * 10**9
    m = re.match(r'^now-(\d+)(d|w|mo|y)$', spec)
    if m:
        local, rest = local_of(zone, now_ns)
        n = int(m.group(1))
        d = local.date()
        if m.group(2) == 'd': d = d - timedelta(days=n)
        elif m.group(2) == 'w': d = d - timedelta(days=7 * n)
        else: d = add_months(d, -n * (12 if m.group(2) == 'y' else 1))
        return wall_ns(zone, d, local.hour, local.minute, local.second) + rest
    m = re.match(r'^H(-?\d+)$', spec)
    if m:
        local = local_of(zone, now_ns + int(m.group(1)) * 3600 * 10**9)[0]
        return wall_ns(zone, local.date(), local.hour)
    if spec == 'SHIFT':
        today = local_of(zone, now_ns)[0].date()
        starts = [wall_ns(zone, today + timedelta(days=k), h) for k in (-1, 0) for h in (6, 14, 22)]
        return max(s for s in starts if s <= now_ns)
    m = re.match(r'^(\S+)(?: (\d\d):(\d\d)(?::(\d\d))?)?$', spec)
    d = day_of(zone, now_ns, m.group(1))
    return wall_ns(zone, d, int(m.group(2) or 0), int(m.group(3) or 0), int(m.group(4) or 0))

asks = json.load(sys.stdin)
print(json.dumps([str(instant(a['zone'], int(a['nowNs']), a['spec'])) for a in asks]))
`;

export interface Ask {
  zone: string;
  nowNs: bigint;
  spec: string;
}

/** The instants the specs name, in nanoseconds since 1970, as Python computes them. */
export function pythonInstants(asks: readonly Ask[]): bigint[] {
  if (asks.length === 0) return [];
  const input = JSON.stringify(asks.map((a) => ({ zone: a.zone, nowNs: a.nowNs.toString(), spec: a.spec })));
  const out = execFileSync('python3', ['-c', PROGRAM], {
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(out) as string[]).map((s) => BigInt(s));
}
