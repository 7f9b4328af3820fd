import type { ManifestPart } from '../manifest/part.js';
import { suggestedPrompts } from './prompts.js';

/** What the pane says of the app before anyone asks anything. */
export const ASSISTANT_DESCRIPTION =
  'Ask tsai what you would ask with /tsai, without the slash: learn, score and backfill models, follow your flows, ask for a live start. It uses the defaults of the channel you view and announces what you start there.';

/**
 * The assistant feature's part of the manifest: the pane (Slack's Agents & AI apps), with the prompts
 * derived from the registry that anyone can click before the bot greets them.
 */
export function assistantManifest(): ManifestPart {
  return {
    assistantView: {
      set: { assistant_description: ASSISTANT_DESCRIPTION, suggested_prompts: suggestedPrompts() },
      why:
        "The assistant pane (Agents & AI apps, on Slack's paid plans): each message there is read as a command, " +
        'answered in the pane and announced in the channel the person views (docs/assistant.md). Its prompts ' +
        'are derived from the registry.',
    },
  };
}
