import type {
  App,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { ackTimer, type SurfaceKind } from '../metrics/metrics.js';
import { carried, inSpan, tracingOn } from '../tracing/trace.js';
import type { Bot } from './bot.js';
import type { BotEvent, ManifestPart } from './manifest/part.js';
import { exactly, type Route, type RouteHandler, type Routes, routeOf, routeRequests } from './routes.js';
import type { FollowUps, Job, JobKind, JobOf, Notice } from './runtime/jobs.js';
import { teamOf } from './tenant.js';

/** What a listener's acknowledgement gets from Bolt, per kind of request. */
export interface ListenerArgs {
  commands: SlackCommandMiddlewareArgs;
  actions: SlackActionMiddlewareArgs<BlockAction>;
  shortcuts: SlackShortcutMiddlewareArgs;
  viewSubmissions: SlackViewMiddlewareArgs<ViewSubmitAction>;
  viewClosures: SlackViewMiddlewareArgs<ViewClosedAction>;
  options: SlackOptionsMiddlewareArgs<'block_suggestion'>;
  /**
   * Events API events, typed as the Home reads its own; the listeners of other events (mentions and direct
   * messages, workflow steps) read the body themselves, as untrusted input.
   */
  events: SlackEventMiddlewareArgs<'app_home_opened'>;
}

/** What an acknowledgement works with on the acking thread. */
export interface ListenerContext {
  bot: Bot;
  /** Where it hands its job on; never waits. */
  followUps: Pick<FollowUps, 'run'>;
}

/** The second half of a listener: what is done with its job after the ack, on the thread that runs follow-ups. */
export interface FollowUp<J extends Job> {
  /** Loads its code on first use, so the acking thread never pays for it. */
  run(job: J, bot: Bot): Promise<void>;
  /** Whom to tell, if the job is lost while in hand; absent for jobs nobody waits on. */
  notice?(job: J): Notice | undefined;
  /**
   * The job opens a view with its `trigger_id`, which Slack takes for 3 seconds only: it then runs on the
   * acking thread, which a machine busy with other work does not starve as it may the lower-priority
   * worker (docs/architecture.md).
   */
  opensView?(job: J): boolean;
  /**
   * The follow-up is given the bot as composed, not as it speaks to the job's tenant (removing an
   * installation, which by then has no token to speak with).
   */
  anyTenant?: true;
}

export type FollowUpTable = { readonly [K in JobKind]?: FollowUp<JobOf<K>> };

/**
 * One listener: which requests it answers, its acknowledgement (within Slack's 3 seconds, on the acking
 * thread) and the follow-ups of the jobs that acknowledgement hands on, side by side.
 */
export interface Listener<R extends Route = Route> {
  /**
   * The requests it answers; an Events API listener also names the bot events the app subscribes to for
   * it (`onEvents`), which manifest.yml declares.
   */
  readonly match: {
    readonly route: R;
    readonly ids: RegExp;
    readonly subscribes?: readonly BotEvent[];
    /**
     * Of the requests its IDs match, the ones it answers, read from the body alone (the messages of the
     * assistant pane's threads among direct messages); the next listener whose IDs match gets the rest.
     */
    readonly accepts?: (body: Record<string, unknown>) => boolean;
  };
  ack(args: ListenerArgs[R], context: ListenerContext): Promise<void>;
  readonly followUps?: FollowUpTable;
  /**
   * What a request asks, in the bot's own words (a command's name), for the name of its trace; absent or
   * undefined: the ID it was routed by. Never anything typed.
   */
  readonly names?: (body: Record<string, unknown>) => string | undefined;
}

/** Something the bot keeps doing unasked until it is stopped. */
export interface Running {
  stop(): Promise<void>;
}

/** One Slack feature: everything the app, the follow-ups and the background work need to know of it. */
export interface Feature {
  readonly name: string;
  readonly listeners: readonly Listener[];
  /** Started on the thread that runs follow-ups, in the order of the features. */
  readonly background?: (bot: Bot) => Promise<Running>;
  /** After every feature's background work stopped: let go of what is still waiting. */
  readonly drain?: (bot: Bot) => Promise<void>;
  /**
   * What it adds to the app's manifest besides its listeners' events (its slash command, shortcuts,
   * steps, scopes, settings), each with why; loaded only by the manifest's generator (src/slack/manifest/).
   */
  readonly manifest?: () => Promise<ManifestPart>;
}

/**
 * The match of a listener of Events API events: the bot events it subscribes to, each with the scope it
 * needs and why. It answers the events of their types: a subscription's type is its name up to a dot, so
 * `message.im` (messages in direct messages) is answered as a `message` event.
 */
export function onEvents(...events: BotEvent[]): Listener<'events'>['match'] {
  const types = [...new Set(events.map((e) => e.name.split('.')[0]!))];
  return { route: 'events', ids: exactly(...types), subscribes: events };
}

/** A listener, its acknowledgement typed by the kind of request it matches. */
export function listener<R extends Route>(l: Listener<R>): Listener {
  return l as unknown as Listener;
}

/** What every listener of these features matches: the patterns `registerListeners` routes by. */
export function routesOf(features: readonly Feature[]): Routes[] {
  return features.flatMap((f) => f.listeners.map((l) => ({ [l.match.route]: l.match.ids })));
}

/** Each job kind's follow-up; a kind declared twice is a mistake caught at start. */
export function followUpsOf(features: readonly Feature[]): ReadonlyMap<JobKind, FollowUp<Job>> {
  const table = new Map<JobKind, FollowUp<Job>>();
  for (const f of features)
    for (const l of f.listeners)
      for (const [kind, followUp] of Object.entries(l.followUps ?? {}) as [JobKind, FollowUp<Job>][]) {
        if (table.has(kind)) throw new Error(`two follow-ups for the job kind ${kind}`);
        table.set(kind, followUp);
      }
  return table;
}

/**
 * Registers every listener with Bolt as one global middleware (routes.ts), which hands each request to the
 * listener whose pattern matches it: Bolt would run every registered listener's middleware chain for every
 * incoming request (docs/performance.md).
 */
export function registerListeners(app: App, features: readonly Feature[], context: ListenerContext): void {
  const handlers = features.flatMap((f) =>
    f.listeners.map((l): RouteHandler => {
      const timer = ackTimer(SURFACE[l.match.route]);
      return {
        route: l.match.route,
        ids: l.match.ids,
        ...(l.match.accepts ? { accepts: l.match.accepts } : {}),
        handle: async (args) => {
          const started = performance.now();
          // Every job this request hands on speaks to the installation it was authorised as.
          const tenant = teamOf(args.body);
          const ack = (stamp: Pick<Job, 'trace'>) => {
            const here =
              tenant || stamp.trace
                ? {
                    bot: context.bot,
                    followUps: {
                      run: (job: Job) =>
                        context.followUps.run({ ...job, ...stamp, ...(tenant ? { tenant } : {}) }),
                    },
                  }
                : context;
            return l.ack(args as unknown as ListenerArgs[Route], here);
          };
          try {
            if (!tracingOn()) await ack({});
            else await tracedRequest(l, args.body as unknown as Record<string, unknown>, tenant, ack);
          } finally {
            timer.observe((performance.now() - started) / 1000);
          }
        },
      };
    }),
  );
  app.use(routeRequests(handlers, context.bot.logger));
}

/**
 * One trace per request from Slack: its span (`slack.command learn`, `slack.action approve_request`) holds
 * the acknowledgement's (`ack`), and every job the acknowledgement hands on carries it, so that the
 * follow-up's spans, on whichever thread, join the same trace (runtime/dispatch.ts).
 */
function tracedRequest(
  l: Listener,
  body: Record<string, unknown>,
  tenant: string | undefined,
  ack: (stamp: Pick<Job, 'trace'>) => Promise<void>,
): Promise<void> {
  const routed = routeOf(body);
  const what = l.names?.(body) ?? (routed && /^[\w./:-]{1,80}$/.test(routed.id) ? routed.id : undefined);
  const surface = SURFACE[l.match.route];
  return inSpan(
    what ? `slack.${surface} ${what}` : `slack.${surface}`,
    { 'slack.surface': surface, 'slack.team.id': tenant, 'slack.user.id': userOf(body) },
    () => {
      const trace = carried();
      return inSpan('ack', {}, () => ack(trace ? { trace } : {}));
    },
    { kind: 'server', root: true },
  );
}

/** Who sent the request, by their Slack ID only. */
function userOf(body: Record<string, unknown>): string | undefined {
  const user = body.user as { id?: unknown } | undefined;
  const event = body.event as { user?: unknown } | undefined;
  const id = user?.id ?? body.user_id ?? event?.user;
  return typeof id === 'string' && /^[UW][A-Z0-9]{2,}$/.test(id) ? id : undefined;
}

/** The `surface` label of each kind of request's acknowledgement time. */
const SURFACE: Record<Route, SurfaceKind> = {
  commands: 'command',
  actions: 'action',
  shortcuts: 'shortcut',
  viewSubmissions: 'view_submission',
  viewClosures: 'view_closed',
  options: 'options',
  events: 'event',
};
