export { MAX_PROMPTS } from './assistant-api.js';
export { commandText } from './command-text.js';
export { DEFAULT_CHANNELS, DEFAULT_TEAMS, DEFAULT_USERGROUPS, DEFAULT_USERS } from './defaults.js';
export { type FaultSpec, type InjectedFault, PLATFORM_ERRORS, RESPONSE_URL } from './faults.js';
export {
  EXECUTION_TOKEN_TTL_MS,
  type FunctionDefinition,
  type FunctionExecution,
  type WorkflowDefinition,
  type WorkflowRun,
  type WorkflowRunView,
} from './functions.js';
export type { InstallTarget, LocalInstall } from './installs.js';
export { startLocalSlack } from './local-slack.js';
export type {
  InstallOutcome,
  LocalSlack,
  LocalSlackOptions,
  SendEventOptions,
  SignedPostOptions,
  TokenStatus,
  WaitPredicate,
} from './local-slack-api.js';
export type { OAuthApp } from './oauth.js';
export { METHOD_TIERS, type RateLimitConfig, type RateLimitOptions, TIERS } from './rate-limits.js';
export { MAX_REACTIONS } from './reactions.js';
export { RESPONSE_URL_MAX_USES, RESPONSE_URL_TTL_MS } from './respond.js';
export { signSlackRequest } from './signing.js';
export { APP_ID, BOT_ID, BOT_USER_ID, type ChannelState, SlackState, TEAM_DOMAIN, TEAM_ID } from './state.js';
export type * from './types.js';
export {
  optionsResponseProblems,
  POST_TEXT_MAX,
  UPDATE_TEXT_MAX,
  VIEW_BYTES_MAX,
  validateMessage,
  validateView,
} from './validate.js';
export { buildStateValues, elementState, findElement, listElements } from './views.js';
export { SUPPORTED_METHODS, userObject, viewPayload } from './webapi.js';
