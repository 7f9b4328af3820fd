import type { FormId, ModalFields } from '../../core/forms/fields.js';
import type { Operation } from '../../core/operations/operation.js';
import type { ModalMeta } from './views/metadata.js';

/** What the forms hand on after their acknowledgements. */
export type FormJob =
  | { kind: 'form-open'; userId: string; teamId?: string; triggerId: string; form: FormId }
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
  | { kind: 'form-submitted'; submission: Submission };

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
