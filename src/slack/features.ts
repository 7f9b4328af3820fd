import { APPROVALS } from './approvals/index.js';
import { ASSISTANT } from './assistant/index.js';
import { COMMAND } from './command/index.js';
import type { Feature } from './feature.js';
import { FLOWS } from './flows/index.js';
import { FORMS } from './forms/index.js';
import { HOME } from './home/index.js';
import { IDENTITY } from './identity/index.js';
import { INSTALL } from './install/index.js';
import { MENTIONS } from './mentions/index.js';
import { SCHEDULES } from './schedules/index.js';
import { SETUP } from './setup/index.js';
import { TYPEAHEAD } from './typeahead/index.js';
import { WORKFLOWS } from './workflows/index.js';

/**
 * Every Slack feature. The app's listeners and routes, the follow-up of each job kind, whom a lost job's
 * notice goes to, and the background work are all read from this list.
 */
export const FEATURES: readonly Feature[] = [
  COMMAND,
  FORMS,
  TYPEAHEAD,
  APPROVALS,
  FLOWS,
  HOME,
  IDENTITY,
  // Before MENTIONS: of the direct messages, it answers those in threads (the pane's).
  ASSISTANT,
  MENTIONS,
  SCHEDULES,
  WORKFLOWS,
  INSTALL,
  SETUP,
];
