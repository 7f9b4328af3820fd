import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from '../log.js';

/**
 * The IDs Slack routes a feature's requests by, as its listeners match them. Each feature registers its
 * listeners with these same patterns, so `routeRequests` knows every request some listener answers.
 */
export interface Routes {
  /** Slash commands, by `command`. */
  commands?: RegExp;
  /** `block_actions` (and legacy actions), by the first action's `action_id`. */
  actions?: RegExp;
  /** Global and message shortcuts, by `callback_id`. */
  shortcuts?: RegExp;
  /** `view_submission`, by the view's `callback_id`. */
  viewSubmissions?: RegExp;
  /** `view_closed`, by the view's `callback_id` (only views opened with notify_on_close send it). */
  viewClosures?: RegExp;
  /** `block_suggestion` (a type-ahead select asking for options), by `action_id`. */
  options?: RegExp;
  /** Events API events, by `event.type` (Bolt acknowledges every event itself). */
  events?: RegExp;
}

/** The one path Slack posts every request to, in HTTP mode (manifest.yml's URLs end with it). */
export const EVENTS_PATH = '/slack/events';

/** An exact ID as a pattern. */
export const exactly = (...ids: string[]) =>
  new RegExp(`^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);

export type Route = keyof Routes;

/** What a request is routed by: which kind, and the ID its listener would match. */
export function routeOf(body: Record<string, unknown>): { route: Route; id: string } | undefined {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const rec = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  if (rec(body.event)) return { route: 'events', id: str(rec(body.event)!.type) };
  if (body.command !== undefined) return { route: 'commands', id: str(body.command) };
  if (body.type === 'block_suggestion') return { route: 'options', id: str(body.action_id) };
  if (Array.isArray(body.actions)) {
    const first = rec(body.actions[0]);
    return { route: 'actions', id: str(first?.action_id ?? body.callback_id) };
  }
  if (body.type === 'shortcut' || body.type === 'message_action')
    return { route: 'shortcuts', id: str(body.callback_id) };
  if (body.type === 'view_submission')
    return { route: 'viewSubmissions', id: str(rec(body.view)?.callback_id) };
  if (body.type === 'view_closed') return { route: 'viewClosures', id: str(rec(body.view)?.callback_id) };
  return undefined;
}

/** What answers the requests of one route whose ID its pattern matches. */
export interface RouteHandler {
  route: Route;
  ids: RegExp;
  /** Of the requests `ids` matches, those it answers; the next handler whose IDs match gets the others. */
  accepts?: (body: Record<string, unknown>) => boolean;
  handle(args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<void>;
}

/**
 * The one global middleware that hands each request to the handler whose pattern matches it, so Bolt runs
 * one middleware per request instead of every listener's chain (docs/performance.md). A request no handler
 * matches (an unknown action_id, shortcut, form, type-ahead or command: a stale message, another app
 * version, a forged click) is acknowledged at once (a type-ahead with no options), logged at warn with
 * what was unknown, and nothing else happens; without that Bolt would leave it unanswered until its
 * 3-second timeout gives a 404 and Slack shows the person an error.
 */
export function routeRequests(
  handlers: readonly RouteHandler[],
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  const byRoute = new Map<Route, RouteHandler[]>();
  for (const h of handlers) byRoute.set(h.route, [...(byRoute.get(h.route) ?? []), h]);
  const log = logger.child({ part: 'routing' });
  return async (args: AnyMiddlewareArgs & AllMiddlewareArgs) => {
    const body = args.body as unknown as Record<string, unknown>;
    const r = routeOf(body);
    if (!r) return args.next();
    // The shortcuts answered are global ones; a message shortcut is not one of them.
    const typeOk = r.route !== 'shortcuts' || body.type === 'shortcut';
    const handler = typeOk
      ? byRoute.get(r.route)?.find((h) => h.ids.test(r.id) && (h.accepts?.(body) ?? true))
      : undefined;
    if (handler) return handler.handle(args);
    const user = (body.user as { id?: unknown } | undefined)?.id ?? body.user_id;
    log.warn(
      { route: r.route, id: r.id, type: body.type, user },
      'no listener answers this request; acknowledged, nothing done',
    );
    // Events were acknowledged by Bolt before any middleware.
    if ('ack' in args && typeof args.ack === 'function') {
      const ack = args.ack as (response?: unknown) => Promise<void>;
      await ack(r.route === 'options' ? { options: [] } : undefined);
    }
  };
}
