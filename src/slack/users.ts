import type { webApi } from '@slack/bolt';
import { isLocaleTag, isValidTimeZone } from '../core/time.js';
import type { Logger } from '../log.js';

export interface UserInfo {
  /** IANA zone from `users.info` (`user.tz`), when Slack knows it. */
  tz?: string;
  /** Handle (`user.name`). */
  name?: string;
  /** The name Slack shows for them (`profile.display_name`, else their real name), for flow names. */
  displayName?: string;
  /** Locale (`user.locale`, asked for with `include_locale`), e.g. "en-GB": how numeric dates are read. */
  locale?: string;
}

export interface UserDirectory {
  lookup(userId: string): Promise<UserInfo>;
}

export interface UserDirectoryOptions {
  ttlMs?: number;
  /** How long a failed lookup is remembered, so a Slack outage does not cost a call per command. */
  failureTtlMs?: number;
  now?: () => number;
  logger?: Logger;
}

/**
 * `users.info` per user, cached with expiry (zones and locales change rarely; a change is picked up after
 * the TTL).
 */
export function createUserDirectory(client: webApi.WebClient, o: UserDirectoryOptions = {}): UserDirectory {
  const ttl = o.ttlMs ?? 60 * 60_000;
  const failureTtl = o.failureTtlMs ?? 60_000;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { until: number; value: Promise<UserInfo> }>();
  return {
    lookup(userId) {
      const hit = cache.get(userId);
      if (hit && hit.until > now()) return hit.value;
      const entry = { until: now() + ttl, value: Promise.resolve<UserInfo>({}) };
      entry.value = client.users
        .info({ user: userId, include_locale: true })
        .then((res) => {
          const tz = res.user?.tz;
          const locale = res.user?.locale;
          const profile = res.user?.profile;
          const displayName =
            profile?.display_name?.trim() || profile?.real_name?.trim() || res.user?.real_name?.trim();
          return {
            ...(displayName ? { displayName } : {}),
            ...(tz && isValidTimeZone(tz) ? { tz } : {}),
            ...(res.user?.name ? { name: res.user.name } : {}),
            ...(isLocaleTag(locale) ? { locale } : {}),
          };
        })
        .catch((e: unknown) => {
          o.logger?.warn({ userId, err: e instanceof Error ? e.message : String(e) }, 'users.info failed');
          entry.until = now() + failureTtl;
          return {};
        });
      cache.set(userId, entry);
      return entry.value;
    },
  };
}

/** The name a person goes by, for the names of what they create: never their ID (undefined: unknown). */
export function goesBy(info: UserInfo, ...others: (string | undefined)[]): string | undefined {
  return [info.displayName, info.name, ...others].find((n) => n !== undefined && n.trim() !== '');
}
