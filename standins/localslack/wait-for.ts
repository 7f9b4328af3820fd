import type { LocalSlackContext } from './context.js';
import type { LocalSlack, WaitPredicate } from './local-slack-api.js';

/** Resolves with the predicate's first truthy answer, checked now and on every change of the workspace. */
export function waitFor<T>(
  ctx: LocalSlackContext,
  slack: LocalSlack,
  predicate: WaitPredicate<T>,
  timeoutMs = 30_000,
  label?: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = (): boolean => {
      let v: T | undefined | null | false;
      try {
        v = predicate(slack);
        // A promise is truthy: waiting on one would resolve at once, with whatever it comes to.
        if (typeof (v as { then?: unknown } | null)?.then === 'function')
          throw new Error(
            'local slack waitFor: the predicate must answer at once; wait on a promise otherwise',
          );
      } catch (err) {
        done();
        reject(err);
        return true;
      }
      if (v === undefined || v === null || v === false) return false;
      done();
      resolve(v);
      return true;
    };
    const onChange = () => {
      check();
    };
    const timer = setTimeout(() => {
      done();
      reject(
        new Error(
          `local slack waitFor(${label ?? predicate.toString().slice(0, 160)}) timed out after ${timeoutMs} ms; ` +
            recentTraffic(ctx),
        ),
      );
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      ctx.state.off('change', onChange);
    };
    if (!check()) ctx.state.on('change', onChange);
  });
}

/** The last few calls and posts, so a timed-out wait says what the bot did instead. */
function recentTraffic(ctx: LocalSlackContext): string {
  const recent = ctx.calls
    .slice(-8)
    .map((c) => `${c.method}${c.response.ok ? '' : `(${String(c.response.error)})`}`)
    .join(', ');
  const resp = ctx.responses
    .slice(-4)
    .map((r) => `${r.status}${r.error ? ` ${r.error}` : ''}`)
    .join(', ');
  return `last Web API calls: [${recent || 'none'}]; last response_url posts: [${resp || 'none'}]`;
}
