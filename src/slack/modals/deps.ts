import type { webApi } from '@slack/bolt';
import type { ModalKind } from '../../core/forms/fields.js';
import type { Store } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';

export type WebClient = webApi.WebClient;

/** What the modals use of the durable store: its small JSON state, for large "Reopen" drafts. */
export type ModalStore = Pick<Store, 'getState' | 'setState'>;

/**
 * The bot's listener deps. Access policy and audit go through the command path's hooks (`authorize`,
 * `recordOutcome`), which see a submission as its equivalent command.
 */
export type ModalDeps = SlackDeps;

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
