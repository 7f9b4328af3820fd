import { ServiceError } from '../api/index.js';
import type { OpFailure } from './outcome.js';

/**
 * Turns a failure of a service call into a sentence for the user. Anything that is not a
 * `ServiceError` is a bug in the bot: it is rethrown so the caller logs it and shows a generic message.
 */
export function serviceFailure(error: unknown, doing: string): OpFailure {
  if (!(error instanceof ServiceError)) throw error;
  if (error.kind === 'outcome-unknown') {
    return {
      ok: false,
      outcomeUnknown: true,
      message: `Not sure whether the service managed to ${doing}: ${error.userMessage}`,
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
