import type { BlockSuggestion } from '@slack/bolt';
import { errText } from '../../log.js';
import { type Feature, type Listener, listener } from '../feature.js';
import { FIELD_OPTIONS_PATTERN } from '../forms/index.js';

/**
 * Typing into a form's type-ahead field: the options are the ack, on the acking thread, from one catalog
 * search within Slack's 3 seconds (its code loads with the first request). Nothing follows.
 */
const fieldOptions: Listener = listener({
  match: { route: 'options', ids: FIELD_OPTIONS_PATTERN },
  async ack({ ack, body }, { bot }) {
    let answer: typeof import('./options.js').ackFieldOptions | undefined;
    try {
      answer = (await import('./options.js')).ackFieldOptions;
    } catch (e) {
      bot.logger.error({ err: errText(e) }, 'type-ahead options could not be loaded');
    }
    if (!answer) return void (await ack({ options: [] }));
    await answer({ ack, body: body as BlockSuggestion }, bot);
  },
});

/** The options of the forms' type-ahead fields (workspaces, models, signals, ... from the catalog). */
export const TYPEAHEAD: Feature = { name: 'type-ahead', listeners: [fieldOptions] };
