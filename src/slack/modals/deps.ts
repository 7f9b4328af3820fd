import type { webApi } from '@slack/bolt';
import type { ModalKind } from '../../core/forms/fields.js';
import type { AccessOutcome, AccessRequest } from '../../core/policy.js';
import type { NewAuditEntry } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';

export type WebClient = webApi.WebClient;

/**
 * What the modals use of the durable store, when the bot has one (the Store interface fits):
 * large "Reopen with my inputs" drafts (getState/setState) and the audit log of flows created.
 */
export interface ModalStore {
  getState<T = unknown>(key: string): Promise<T | null>;
  setState(key: string, value: unknown, at: number): Promise<void>;
  appendAudit(entry: NewAuditEntry): Promise<unknown>;
}

/**
 * The bot's listener deps, plus what the modals use when present: the store, and the access policy
 * (a modal opened from a global shortcut never passed the command's `authorize` hook).
 */
export type ModalDeps = SlackDeps & {
  store?: ModalStore;
  policy?: { check(req: AccessRequest): Promise<AccessOutcome> };
};

/** `defaultName` operation word per modal, as the command path names flows. */
export const OPERATION_WORD: Record<ModalKind, string> = {
  learn: 'learn',
  relearn: 'relearn',
  score: 'score',
  eval: 'eval',
};

export function errText(e: unknown): string {
  if (e instanceof Error) {
    const data = (e as { data?: { error?: string } }).data;
    return data?.error ? `${e.message} (${data.error})` : e.message;
  }
  return String(e);
}
