// Which way round a numeric date such as 01/11/2025 is read, from the user's Slack locale ("en-GB").

export type DateOrder = 'DMY' | 'MDY';

// Month first: the United States and the places that follow its usage.
const MONTH_FIRST = new Set(['US', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI', 'PH', 'FM', 'MH', 'PW']);

// Year first, or both orders in everyday use: a numeric date written with the year last cannot be
// read safely for them, so it is treated as if the region were unknown.
const NO_SAFE_ORDER = new Set(['CA', 'ZA', 'CN', 'TW', 'JP', 'KR', 'KP', 'MN', 'HU', 'LT', 'IR']);

const LOCALE = /^([a-z]{2,3})(?:[-_]([a-z]{4}))?(?:[-_]([a-z]{2}|\d{3}))?(?:[-_].*)?$/i;

/**
 * Day/month order for a locale tag such as "en-US" or "de-DE": month first for the regions above, day
 * first for every other known region, and undefined (unknown) when the tag names no region, a region
 * with no safe order, or is not a locale tag at all.
 */
export function dateOrderFor(locale: string | undefined): DateOrder | undefined {
  if (typeof locale !== 'string' || locale.length > 35) return undefined;
  const m = LOCALE.exec(locale.trim());
  const region = m?.[3]?.toUpperCase();
  if (region === '419') return 'DMY'; // Latin America (es-419)
  if (!region || /^\d/.test(region)) return undefined;
  if (MONTH_FIRST.has(region)) return 'MDY';
  if (NO_SAFE_ORDER.has(region)) return undefined;
  return 'DMY';
}

/** A tag worth keeping from Slack: letters, digits and separators only, of a sane length. */
export function isLocaleTag(locale: unknown): locale is string {
  return typeof locale === 'string' && LOCALE.test(locale) && locale.length <= 35;
}

/** How a locale writes a short date with a two-digit year: the order and the separator ("03.03.26"). */
export interface TwoDigitYears {
  order: DateOrder;
  separator: string;
}

const shortDates = new Map<string, TwoDigitYears | null>();

/**
 * Whether the locale writes its short dates with a two-digit year, as de-DE writes 03.03.26 and en-US
 * 3/3/26: then such a date is read in that order with that separator (Intl's short date pattern says
 * which). Undefined for a locale that writes four digits (en-GB, fr-FR), no region, or a year-first
 * order.
 */
export function twoDigitYearsFor(locale: string | undefined): TwoDigitYears | undefined {
  const order = dateOrderFor(locale);
  if (!order || !locale) return undefined;
  let found = shortDates.get(locale);
  if (found === undefined) {
    found = null;
    try {
      const parts = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: 'UTC' }).formatToParts(
        Date.UTC(2033, 10, 22),
      );
      const fields = parts.filter((p) => p.type !== 'literal').map((p) => p.type);
      const year = parts.find((p) => p.type === 'year')?.value;
      const seps = new Set(parts.filter((p) => p.type === 'literal').map((p) => p.value));
      const written =
        fields.join(',') === 'day,month,year'
          ? 'DMY'
          : fields.join(',') === 'month,day,year'
            ? 'MDY'
            : undefined;
      const [separator] = [...seps];
      if (year === '33' && written && seps.size === 1 && separator && /^[./-]$/.test(separator)) {
        found = { order: written, separator };
      }
    } catch {
      found = null;
    }
    if (shortDates.size < 500) shortDates.set(locale, found);
  }
  return found && found.order === order ? found : undefined;
}

/** A two-digit year in the hundred years from 80 before `current` to 19 after it, as ICU reads them. */
export function fullYear(twoDigits: number, current: number): number {
  const year = Math.floor(current / 100) * 100 + twoDigits;
  return year >= current + 20 ? year - 100 : year < current - 80 ? year + 100 : year;
}
