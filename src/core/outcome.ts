import type { GuaranteeId } from './gate/guarantees.js';

/**
 * What an operation produced, free of Slack: the Slack layer renders it (views/) where core/present.ts
 * says it goes.
 * Values are raw text; the renderer escapes them.
 */
export interface Fact {
  label: string;
  value: string;
  /** Render as code (IDs, names typed by users). */
  code?: boolean;
  /** The value is an instant (epoch ms), shown in the reader's own zone. */
  time?: boolean;
}

/** What a service operation produced (a created or looked-up resource), for the surface to show. */
export interface OpSuccess {
  ok: true;
  kind: 'service';
  /** `channel` for mutating operations (the team sees who did what), `ephemeral` for lookups. */
  visibility: 'channel' | 'ephemeral';
  /** One line, e.g. "created an ANOMALYLEARN flow" (rendered after the user's mention in the channel). */
  title: string;
  facts: Fact[];
  flow?: { id: string; status: string };
  /** Extra sentences shown under the facts (warnings, hints). */
  notes?: string[];
  /** The resource the service's reply named (a workspace, a model), for the catalog of known resources. */
  seen?: { id: string; name?: string; workspace?: string };
}

export interface OpFailure {
  ok: false;
  /** What was wrong, one or two sentences. */
  message: string;
  /** The argument it is about (its key), when it is about one: a form shows it under that argument's field. */
  argument?: string;
  usage?: string;
  example?: string;
  /**
   * A value that has more than one reading (a time range such as `yesterday 1-5`): each reading as the one
   * `key=value` that gives it, so the surface can offer each to click or type; `example` is the first.
   */
  readings?: string[];
  /** The service may or may not have acted (timeout after sending a create). */
  outcomeUnknown?: boolean;
  /** The service's HTTP status, when it answered: a 404 says an ID does not exist. */
  status?: number;
  /**
   * Refused for want of the person's own service identity: the surface offers to connect (or reconnect)
   * and keeps the command so it can be run again.
   */
  connect?: 'connect' | 'reconnect';
  /**
   * Refused by the access policy: whom to ask, or where the bot acts (the surface renders the mentions).
   * `not-owner`: only `owner` or the approvers named in `askUsers`/`askGroups` may.
   */
  refusal?: {
    reason: 'channel-not-allowed' | 'not-operator' | 'not-approver' | 'not-owner';
    askUsers: string[];
    askGroups: string[];
    allowedChannels: string[];
    owner?: string;
  };
  /** The gate refused it before anything was sent: which of its guarantees (core/gate/guarantees.ts). */
  refusedBy?: GuaranteeId;
  /**
   * What the person lost, said of them in the third person ("is no longer an operator"): how a schedule
   * paused for its owner's rights says why.
   */
  lost?: string;
}

export type OpOutcome = OpSuccess | OpFailure;
