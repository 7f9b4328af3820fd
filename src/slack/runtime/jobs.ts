import type { SlashCommand } from '@slack/bolt';
import type { ModalFields, ModalKind } from '../../core/forms/fields.js';
import type { Operation } from '../../core/operations/operation.js';
import type { ModalMeta } from '../forms/views/metadata.js';

/**
 * The work a listener hands on after its acknowledgement: plain data, because it usually runs on the
 * follow-up worker thread (see `worker-host.ts`). One kind per follow-up; `dispatch.ts` maps each to
 * the feature function that does it.
 */
export type Job =
  | { kind: 'command'; command: SlashCommand }
  | { kind: 'form-open'; userId: string; teamId?: string; triggerId: string; form: ModalKind }
  | {
      kind: 'form-range';
      userId: string;
      view: { id: string; hash: string; privateMetadata: string; values: Record<string, unknown> };
      change: { kind: 'preview' } | { kind: 'add' } | { kind: 'remove'; key: number };
    }
  | {
      kind: 'form-reopen';
      userId: string;
      teamId?: string;
      triggerId: string;
      value: string;
      responseUrl?: string;
    }
  | { kind: 'form-submitted'; submission: Submission }
  | {
      kind: 'approval-click';
      action: 'approve' | 'reject' | 'retry';
      requestId: string;
      userId: string;
      teamId?: string;
      channelId?: string;
      responseUrl?: string;
      triggerId: string;
    }
  | { kind: 'approval-reject'; requestId: string; userId: string; teamId?: string; reason?: string }
  /** The user opened the app's Home tab; `hash`: of the view Slack shows them now. */
  | { kind: 'home-opened'; userId: string; teamId: string; hash?: string }
  /** Approve or Reject in the Home tab: no response_url, no channel. */
  | {
      kind: 'home-decision';
      action: 'approve' | 'reject';
      requestId: string;
      userId: string;
      teamId?: string;
      triggerId: string;
    }
  | {
      kind: 'flow-next';
      step: 'score' | 'relearn';
      /** The button's value: the IDs to fill in. */
      value: string;
      userId: string;
      teamId?: string;
      triggerId: string;
      channelId?: string;
      responseUrl?: string;
    };

/** A form that passed validation in its acknowledgement: what to run, and what to show or reopen. */
export interface Submission {
  userId: string;
  teamId?: string;
  meta: ModalMeta;
  /** What was typed, for "Reopen with my inputs". */
  fields: ModalFields;
  operation: Operation;
  timeZone: string;
  /** Where the outcome goes. */
  channelId: string;
  responseUrls: string[];
}

/** Whom to tell, and what to call the job, if its thread dies while it is in hand. */
export interface Notice {
  userId: string;
  channelId?: string;
  responseUrl?: string;
  /** e.g. "`/tsai learn …`" or "your approval of request 1a2b…". */
  what: string;
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
}
