import { type AnyEntry, REGISTRY } from '../../core/operations/registry/index.js';
import type { GlobalShortcut, ManifestPart } from '../manifest/part.js';
import { shortcutCallbackId } from './views/ids.js';

/** A summary's first sentence, as plain text: a shortcut's description in Slack's ⚡ menu. */
function firstSentence(summary: string): string {
  return (summary.split(/(?<=\.)\s/)[0] ?? summary).replaceAll('`', '');
}

/**
 * The global shortcut of each form that declares one (`shortcut: true`): named as the form is titled, so
 * the ⚡ menu and the form it opens say the same words, and described by its command's summary.
 */
export function formShortcuts(entries: readonly AnyEntry[] = REGISTRY): GlobalShortcut[] {
  return entries.flatMap((e) =>
    e.form?.shortcut
      ? [
          {
            name: e.form.title,
            callback_id: shortcutCallbackId(e.form.id),
            description: firstSentence(e.command.summary),
          },
        ]
      : [],
  );
}

/** The forms feature's part of the manifest: the forms' global shortcuts. */
export function formsManifest(): ManifestPart {
  return { shortcuts: formShortcuts() };
}
