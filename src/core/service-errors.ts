import { ServiceError } from '../api/errors.js';
import type { OpFailure } from './outcome.js';

/** What a creating request asked the service for, so that a person can look for it by its name. */
export interface Creating {
  what: 'flow' | 'workspace';
  name: string;
}

/**
 * Turns a failure of a service call into a sentence for the user. Anything that is not a
 * `ServiceError` is a bug in the bot: it is rethrown so the caller logs it and shows a generic message.
 * `creating`: the request created something, so an unknown outcome says what to look for.
 */
export function serviceFailure(error: unknown, doing: string, creating?: Creating): OpFailure {
  if (!(error instanceof ServiceError)) throw error;
  if (error.kind === 'outcome-unknown') {
    return {
      ok: false,
      outcomeUnknown: true,
      message: `Not sure whether the service managed to ${doing}: ${error.userMessage}${creating ? lookFor(creating) : ''}`,
    };
  }
  if (error.kind === 'busy') {
    return { ok: false, message: `Could not ${doing} right now: ${error.userMessage}` };
  }
  return {
    ok: false,
    message: `Could not ${doing}: ${error.userMessage}`,
    ...(error.status !== undefined ? { status: error.status } : {}),
  };
}

/**
 * Where a person finds what may have been created: the bot has no ID to follow, only the name it sent.
 * Running the request again before looking could create it twice.
 */
function lookFor(c: Creating): string {
  return c.what === 'flow'
    ? ` It may have been created: look for the flow named "${c.name}" in the service's Activity view; with its ID, \`/tsai flow <ID>\` shows it here.`
    : ` It may have been created: look for the workspace named "${c.name}" in the service before creating it again.`;
}
