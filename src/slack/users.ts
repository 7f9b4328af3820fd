import type { webApi } from '@slack/bolt';
import type { SlackRights, Standing } from '../core/gate/index.js';
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
  /**
   * Their account as Slack said it then: `deactivated` (`deleted: true`), `gone` (`user_not_found`), or
   * `unknown` when Slack did not answer.
   */
  standing?: Standing;
}

export interface UserDirectory {
  lookup(userId: string): Promise<UserInfo>;
  /**
   * Their standing in Slack now: what `users.info` said within the last `standingTtlMs` (on the bot's
   * clock), else asked again. The gate asks it before every operation it lets through.
   */
  standing(userId: string): Promise<Standing>;
  /**
   * What Slack says of their rights now, asked anew (never from the cache: an admin demoted a minute ago
   * is no admin); undefined when Slack did not answer.
   */
  rights(userId: string): Promise<SlackRights | undefined>;
}

export interface UserDirectoryOptions {
  ttlMs?: number;
  /** How long a failed lookup is remembered, so a Slack outage does not cost a call per command. */
  failureTtlMs?: number;
  /** How long a person's standing is taken as Slack last said it (default a minute). */
  standingTtlMs?: number;
  now?: () => number;
  /** The bot's clock, which standing is fresh by (default `now`). */
  clock?: () => number;
  logger?: Logger;
}

/** Slack's error code of a failed Web API call, when it has one. */
const slackError = (e: unknown): string | undefined =>
  (e as { data?: { error?: unknown } }).data?.error as string | undefined;

/**
 * `users.info` per user, cached with expiry (zones and locales change rarely; a change is picked up after
 * the TTL). A person's standing (deactivated, deleted) is taken from the same answer, but only for a
 * minute: a deactivated owner's schedule must stop at its next run, not an hour later.
 */
export function createUserDirectory(client: webApi.WebClient, o: UserDirectoryOptions = {}): UserDirectory {
  const ttl = o.ttlMs ?? 60 * 60_000;
  const failureTtl = o.failureTtlMs ?? 60_000;
  const standingTtl = o.standingTtlMs ?? 60_000;
  const now = o.now ?? Date.now;
  const clock = o.clock ?? now;
  const cache = new Map<string, { until: number; askedAt: number; value: Promise<UserInfo> }>();
  const ask = (userId: string) => {
    const entry = { until: now() + ttl, askedAt: clock(), value: Promise.resolve<UserInfo>({}) };
    entry.value = client.users
      .info({ user: userId, include_locale: true })
      .then((res) => {
        const tz = res.user?.tz;
        const locale = res.user?.locale;
        const profile = res.user?.profile;
        const displayName =
          profile?.display_name?.trim() || profile?.real_name?.trim() || res.user?.real_name?.trim();
        const standing: Standing = res.user?.deleted === true ? 'deactivated' : 'active';
        return {
          ...(displayName ? { displayName } : {}),
          ...(tz && isValidTimeZone(tz) ? { tz } : {}),
          ...(res.user?.name ? { name: res.user.name } : {}),
          ...(isLocaleTag(locale) ? { locale } : {}),
          standing,
        };
      })
      .catch((e: unknown): UserInfo => {
        o.logger?.warn({ userId, err: e instanceof Error ? e.message : String(e) }, 'users.info failed');
        entry.until = now() + failureTtl;
        return { standing: slackError(e) === 'user_not_found' ? 'gone' : 'unknown' };
      });
    cache.set(userId, entry);
    return entry;
  };
  return {
    lookup(userId) {
      const hit = cache.get(userId);
      if (hit && hit.until > now()) return hit.value;
      return ask(userId).value;
    },
    async standing(userId) {
      const hit = cache.get(userId);
      const fresh = hit && hit.until > now() && clock() - hit.askedAt < standingTtl && clock() >= hit.askedAt;
      return (await (fresh ? hit.value : ask(userId).value)).standing ?? 'unknown';
    },
    async rights(userId) {
      try {
        const { user } = await client.users.info({ user: userId });
        return user ? rightsOf(user) : undefined;
      } catch (e) {
        o.logger?.warn({ userId, err: e instanceof Error ? e.message : String(e) }, 'users.info failed');
        return undefined;
      }
    },
  };
}

type SlackUser = NonNullable<Awaited<ReturnType<webApi.WebClient['users']['info']>>['user']>;

/** `users.info`'s answer as far as a person's rights go: their workspace, their organisation, guests. */
function rightsOf(user: SlackUser): SlackRights {
  const e = user.enterprise_user;
  return {
    ...(user.team_id ? { teamId: user.team_id } : {}),
    admin: user.is_admin === true,
    owner: user.is_owner === true || user.is_primary_owner === true,
    guest: user.is_restricted === true || user.is_ultra_restricted === true,
    stranger: user.is_stranger === true,
    deleted: user.deleted === true,
    ...(e?.enterprise_id
      ? {
          enterprise: {
            id: e.enterprise_id,
            admin: e.is_admin === true,
            owner: e.is_owner === true || e.is_primary_owner === true,
            teams: e.teams ?? [],
          },
        }
      : {}),
  };
}

/** The name a person goes by, for the names of what they create: never their ID (undefined: unknown). */
export function goesBy(info: UserInfo, ...others: (string | undefined)[]): string | undefined {
  return [info.displayName, info.name, ...others].find((n) => n !== undefined && n.trim() !== '');
}
