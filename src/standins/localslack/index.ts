export { commandText } from './command-text.js';
export { DEFAULT_CHANNELS, DEFAULT_USERGROUPS, DEFAULT_USERS } from './defaults.js';
export {
  type LocalSlack,
  type LocalSlackOptions,
  type SignedPostOptions,
  startLocalSlack,
  type WaitPredicate,
} from './local-slack.js';
export { RESPONSE_URL_MAX_USES, RESPONSE_URL_TTL_MS } from './respond.js';
export { signSlackRequest } from './signing.js';
export { APP_ID, BOT_ID, BOT_USER_ID, type ChannelState, SlackState, TEAM_DOMAIN, TEAM_ID } from './state.js';
export type {
  ApiCall,
  Delivery,
  LocalChannel,
  LocalMessage,
  LocalSlackSnapshot,
  LocalUser,
  LocalUsergroup,
  OpenView,
  ResponseUrlCall,
} from './types.js';
export { validateMessage, validateView } from './validate.js';
export { buildStateValues, elementState, findElement, listElements } from './views.js';
export { SUPPORTED_METHODS, userObject, viewPayload } from './webapi.js';
