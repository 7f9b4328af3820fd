import type { ThreadMetrics } from '../../metrics/metrics.js';
import type { Carried } from '../../tracing/trace.js';
import type { ApprovalJob } from '../approvals/jobs.js';
import type { AssistantJob } from '../assistant/jobs.js';
import type { CommandJob } from '../command/jobs.js';
import type { FlowJob } from '../flows/jobs.js';
import type { FormJob } from '../forms/jobs.js';
import type { HomeJob } from '../home/jobs.js';
import type { IdentityJob } from '../identity/jobs.js';
import type { InstallJob } from '../install/jobs.js';
import type { MessageJob } from '../mentions/jobs.js';
import type { PlainJob } from '../plain/jobs.js';
import type { ScheduleJob } from '../schedules/jobs.js';
import type { SetupJob } from '../setup/jobs.js';
import type { TypedOn } from '../views/typed-commands.js';
import type { WorkflowJob } from '../workflows/jobs.js';

/**
 * The work a listener hands on after its acknowledgement: plain data, because it usually runs on the
 * follow-up worker thread (see `worker-host.ts`). Each feature declares its own kinds, and the follow-up
 * that does each (`dispatch.ts` finds it in the list of features).
 */
export type Job = (
  | CommandJob
  | FormJob
  | ApprovalJob
  | HomeJob
  | FlowJob
  | IdentityJob
  | MessageJob
  | ScheduleJob
  | WorkflowJob
  | InstallJob
  | SetupJob
  | AssistantJob
  | PlainJob
) & {
  /**
   * The tenant whose installation the job speaks to (slack/tenant.ts), as its request was authorised:
   * set by `registerListeners` on every job an acknowledgement hands on, so no feature can forget it.
   */
  tenant?: string;
  /** The trace of the request it came from, when tracing is on: its follow-up's spans join it. */
  trace?: Carried;
};

export type JobKind = Job['kind'];

/** The job of one kind. */
export type JobOf<K extends JobKind> = Extract<Job, { kind: K }>;

/** Whom to tell, and what to call the job, if its thread dies while it is in hand. */
export interface Notice {
  userId: string;
  /** The tenant whose installation reaches them (the job's). */
  tenant?: string;
  channelId?: string;
  /** The thread they asked in (a mention): they are told there. */
  threadTs?: string;
  /** Their message starts that thread (a mention at the top of a channel): they are told in the channel. */
  startsThread?: boolean;
  /** They asked in their direct messages with the bot: they are told there. */
  direct?: boolean;
  /** How commands are typed where they asked (a mention, the Messages tab). */
  typedOn?: TypedOn;
  responseUrl?: string;
  /** e.g. "`/tsai learn …`" or "your approval of request 1a2b…". */
  what: string;
  /**
   * What the store keeps instead of `what` when `what` quotes what a person typed, which may carry a token
   * pasted in the wrong place (a command: its first word alone).
   */
  keptWhat?: string;
}

/** Where follow-ups run: the follow-up worker thread, or this thread when the store cannot be shared. */
export interface FollowUps {
  /** Hands a job on after its listener acknowledged; never throws, never waits. */
  run(job: Job): void;
  /** Resolves when follow-ups can run; rejects when their thread could not start. */
  readonly ready: Promise<void>;
  /** Finishes the jobs in hand (within a bound), stops the background work, and closes. */
  stop(): Promise<void>;
  /** Has the thread that runs them log its memory use, when that is another thread. */
  memory?(): void;
  /** That thread's metrics, when it is another thread (empty when it does not answer in time). */
  metrics?(): Promise<ThreadMetrics[]>;
}
