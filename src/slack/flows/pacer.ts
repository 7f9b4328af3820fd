/**
 * Keeps calls under Slack's rate limits before Slack has to say so: a token bucket per key (a method, or a
 * method and channel). `take` either spends a token or says when the next one comes, so the caller can
 * put that one message off and go on with the others.
 */
export class Pacer {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly o: { perMinute: number; burst: number },
    private readonly clock: () => number = Date.now,
  ) {}

  take(key: string): { ok: true } | { ok: false; at: number } {
    const now = this.clock();
    const rate = this.o.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.o.burst, at: now };
    b.tokens = Math.min(this.o.burst, b.tokens + (now - b.at) * rate);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, at: now + Math.ceil((1 - b.tokens) / rate) };
  }
}
