import { describe, expect, it } from 'vitest';
import { slackFailure, slackFailureText } from '../../src/slack/slack-errors.js';

/** A WebClient platform error as @slack/web-api throws it. */
const platformError = (error: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error, ...extra },
  });

const say = (error: string, extra?: Record<string, unknown>) =>
  slackFailureText(slackFailure(platformError(error, extra)));

describe('what a person is told when Slack refuses a call', () => {
  it.each([
    ['not_in_channel', 'invite it with `/invite @tsai`'],
    ['channel_not_found', 'invite it with `/invite @tsai`, or check the channel setting'],
    ['is_archived', 'unarchive it, or choose another channel'],
    ['msg_too_long', 'a bug in the bot'],
    ['invalid_blocks', 'a bug in the bot'],
    ['token_revoked', 'tell your Slack admins'],
    ['account_inactive', 'tell your Slack admins'],
    ['invalid_auth', 'tell your Slack admins'],
    ['restricted_action', 'ask a workspace admin'],
    ['missing_scope', "add it to the app's manifest (manifest.yml)"],
    ['some_new_error', 'a reason the bot does not know'],
  ])('%s: a sentence with the fix, never the code', (error, fix) => {
    const text = say(error);
    expect(text).toContain(fix);
    expect(text).not.toContain(error);
  });

  it('names the scope Slack says is missing', () => {
    expect(say('missing_scope', { needed: 'chat:write.public' })).toContain(
      'the bot lacks the `chat:write.public` permission in Slack',
    );
    expect(say('missing_scope', { needed: '<!here>' })).toContain('the bot lacks a permission in Slack');
  });
});
