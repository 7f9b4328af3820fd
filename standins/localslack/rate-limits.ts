/**
 * Slack's rate limits, off unless asked for: per method per workspace per minute by tier, and for
 * chat.postMessage about one message per second per channel. A refused call answers HTTP 429 with the
 * whole seconds until the first call that would succeed (Retry-After), and does not count.
 */

/** Calls per minute of Slack's tiers. */
export const TIERS = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;

/** The tier of each method the stand-in serves; chat.postMessage is limited per channel instead. */
export const METHOD_TIERS: Record<string, keyof typeof TIERS> = {
  'api.test': 4,
  'auth.test': 4,
  'chat.postEphemeral': 4,
  'chat.update': 3,
  'chat.getPermalink': 4,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
  'users.info': 4,
  'usergroups.users.list': 2,
  'conversations.info': 3,
  'reactions.add': 3,
  'reactions.remove': 2,
  'assistant.threads.setStatus': 4,
  'assistant.threads.setSuggestedPrompts': 4,
  'assistant.threads.setTitle': 4,
};

export interface RateLimitOptions {
  /** Calls per minute by method, replacing the tier's figure (e.g. `{ 'chat.update': 5 }`). */
  perMinute?: Record<string, number>;
  /** chat.postMessage per channel per second; Slack's is 1. */
  postsPerSecondPerChannel?: number;
}

export interface RateLimitConfig extends Required<RateLimitOptions> {
  enabled: boolean;
}

const MINUTE = 60_000;
const SECOND = 1_000;

export class RateLimiter {
  private config: RateLimitConfig;
  /** Accepted call times (ms) by key: `method` or `chat.postMessage|channel`. */
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    initial: boolean | RateLimitOptions | undefined,
  ) {
    this.config = RateLimiter.configOf(initial);
  }

  static configOf(o: boolean | RateLimitOptions | undefined): RateLimitConfig {
    const opts = typeof o === 'object' ? o : {};
    const counts = [...Object.values(opts.perMinute ?? {}), opts.postsPerSecondPerChannel ?? 1];
    if (!counts.every((n) => Number.isInteger(n) && n >= 1))
      throw new Error('rate limits: every limit must be a whole number of calls, at least 1');
    return {
      enabled: o !== undefined && o !== false,
      perMinute: { ...(opts.perMinute ?? {}) },
      postsPerSecondPerChannel: opts.postsPerSecondPerChannel ?? 1,
    };
  }

  set(o: boolean | RateLimitOptions): RateLimitConfig {
    this.config = RateLimiter.configOf(o);
    this.seen.clear();
    return this.describe();
  }

  describe(): RateLimitConfig {
    return { ...this.config, perMinute: { ...this.config.perMinute } };
  }

  clearCounters(): void {
    this.seen.clear();
  }

  private limitOf(
    method: string,
    channel: string | undefined,
  ): { key: string; max: number; windowMs: number } {
    if (method === 'chat.postMessage' && channel !== undefined)
      return {
        key: `${method}|${channel}`,
        max: this.config.postsPerSecondPerChannel,
        windowMs: SECOND,
      };
    const tier = METHOD_TIERS[method];
    const max = this.config.perMinute[method] ?? (tier ? TIERS[tier] : TIERS[3]);
    return { key: method, max, windowMs: MINUTE };
  }

  /**
   * Counts the call when it is allowed; otherwise returns the Retry-After seconds. `channel` is the
   * channel a chat.postMessage goes to.
   */
  take(method: string, channel?: string): { retryAfter: number } | undefined {
    if (!this.config.enabled) return undefined;
    const { key, max, windowMs } = this.limitOf(method, channel);
    const now = this.now();
    const times = (this.seen.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length >= max) {
      this.seen.set(key, times);
      // The oldest call in the window leaves it first; from then on one more call fits.
      const waitMs = times[times.length - max]! + windowMs - now;
      return { retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    times.push(now);
    this.seen.set(key, times);
    return undefined;
  }
}
