import { vi } from 'vitest';
import type { LocalSlack } from '../../standins/localslack/index.js';

/**
 * The least time a test waits for a condition before calling it a hang. A test's own figure says how soon
 * the condition comes on an idle machine; on one whose cores another process keeps busy it comes later,
 * and a test that then fails is a test that fails. Waits end as soon as their condition holds, so the
 * bound costs nothing when all is well.
 */
export const HANG_BOUND_MS = 60_000;

/** `slack`, whose every `waitFor` waits at least `HANG_BOUND_MS` before it gives up. */
export function patient(slack: LocalSlack): LocalSlack {
  const waitFor = slack.waitFor.bind(slack);
  slack.waitFor = (predicate, timeoutMs, label) =>
    waitFor(predicate, Math.max(timeoutMs ?? 0, HANG_BOUND_MS), label);
  return slack;
}

/**
 * `vi.waitFor`, whose own default gives up after one second, with the hang bound above as its least
 * timeout: the callback is retried until it stops throwing (or its promise resolves).
 */
export function waitUntil<T>(
  callback: () => T | Promise<T>,
  options: number | { timeout?: number; interval?: number } = {},
): Promise<T> {
  const o = typeof options === 'number' ? { timeout: options } : options;
  return vi.waitFor(callback, {
    interval: o.interval ?? 20,
    timeout: Math.max(o.timeout ?? 0, HANG_BOUND_MS),
  });
}
