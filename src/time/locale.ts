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
