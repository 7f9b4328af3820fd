import type { Bot } from '../bot.js';
import { type Feature, type Listener, listener } from '../feature.js';
import {
  ackFormAction,
  ackShortcut,
  ackSubmission,
  FORM_ACTIONS,
  FORM_CALLBACKS,
  FORM_SHORTCUTS,
} from './listeners.js';
import type { OfferedForm, OpenFormRequest } from './open.js';

export { loadDraft, saveDraft } from './drafts.js';
export { FIELD_OPTIONS_PATTERN } from './views/ids.js';
export { decodeMeta } from './views/metadata.js';
export { pickedResources, type StateValues } from './views/state.js';
export type { OpenFormRequest };

/** Opens a form, prefilled (`open.ts`); false when Slack refused to open it. */
export async function openForm(bot: Bot, req: OpenFormRequest): Promise<boolean> {
  return (await import('./open.js')).openForm(bot, req);
}

/** Offers a button that opens a form, where a typed command gives no trigger to open it at once (`open.ts`). */
export async function offerForm(...args: Parameters<typeof import('./open.js').offerForm>): Promise<void> {
  return (await import('./open.js')).offerForm(...args);
}

export type { OfferedForm };

/** A global shortcut opens its form. */
const formShortcut: Listener = listener({
  match: { route: 'shortcuts', ids: FORM_SHORTCUTS },
  ack: (args, { followUps }) => ackShortcut(args, followUps),
  followUps: {
    'form-open': {
      run: async (job, bot) => (await import('./open.js')).followShortcut(job, bot),
      opensView: () => true,
    },
  },
});

/** Inside a form: a range previewed, added or removed; and "Reopen with my inputs" under a message. */
const formAction: Listener = listener({
  match: { route: 'actions', ids: FORM_ACTIONS },
  ack: (args, { followUps }) => ackFormAction(args, followUps),
  followUps: {
    'form-range': { run: async (job, bot) => (await import('./interact.js')).followRangeChange(job, bot) },
    'form-reopen': {
      run: async (job, bot) => (await import('./open.js')).followReopen(job, bot),
      opensView: () => true,
    },
  },
});

/** A form sent: validated in the ack (errors under their fields), then run. */
const formSubmission: Listener = listener({
  match: { route: 'viewSubmissions', ids: FORM_CALLBACKS },
  ack: (args, { bot, followUps }) => ackSubmission(args, bot, followUps),
  followUps: {
    'form-submitted': {
      run: async (job, bot) => (await import('./submit.js')).followSubmission(job.submission, bot),
      notice: ({ submission: s }) => ({
        userId: s.userId,
        channelId: s.channelId,
        ...(s.responseUrls[0] ? { responseUrl: s.responseUrls[0] } : {}),
        what: `your ${s.meta.kind} form`,
      }),
    },
  },
});

/** The operations' forms: their shortcuts, the actions inside them, and their submission. */
export const FORMS: Feature = {
  name: 'forms',
  listeners: [formShortcut, formAction, formSubmission],
  manifest: async () => (await import('./manifest.js')).formsManifest(),
};
