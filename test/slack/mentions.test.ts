import { describe, expect, it } from 'vitest';
import { ackMessageEvent, readMessageEvent } from '../../src/slack/mentions/listener.js';
import { directCommand, mentionCommand } from '../../src/slack/mentions/text.js';
import type { Job } from '../../src/slack/runtime/jobs.js';
import { writtenFor } from '../../src/slack/views/typed-commands.js';

const BOT = 'U0BOT';
const context = { botUserId: BOT, botId: 'B0BOT' };
const envelope = (event: Record<string, unknown>) => ({
  body: { type: 'event_callback', team_id: 'T0TEAM', event_id: 'Ev1', event },
  context,
});

describe('the command a mention asks', () => {
  it('is what follows the bot’s first mention, else what precedes it; other mentions of it go', () => {
    expect(mentionCommand(`<@${BOT}> flow 123`, BOT)).toBe('flow 123');
    expect(mentionCommand(`hey <@${BOT}> flow 123`, BOT)).toBe('flow 123');
    expect(mentionCommand(`flow 123 <@${BOT}>`, BOT)).toBe('flow 123');
    expect(mentionCommand(`<@${BOT}|tsai> learn name="a <@${BOT}> b"`, BOT)).toBe('learn name="a   b"');
    expect(mentionCommand(`<@${BOT}>`, BOT)).toBe('');
    // Someone else's mention stays: it is part of what was asked (and refused as such).
    expect(mentionCommand(`<@${BOT}> flows <@U0ALICE>`, BOT)).toBe('flows <@U0ALICE>');
    expect(mentionCommand(`<@${BOT}> learn\nworkspace=1`, BOT)).toBe('learn\nworkspace=1');
  });

  it('in a direct message is the message, without a /tsai typed out of habit or the bot’s mention', () => {
    expect(directCommand('flows 5', BOT)).toBe('flows 5');
    expect(directCommand('/tsai flows 5', BOT)).toBe('flows 5');
    expect(directCommand('/TSAI', BOT)).toBe('');
    expect(directCommand(`<@${BOT}> help`, BOT)).toBe('help');
    expect(directCommand('/tsaiflows', BOT)).toBe('/tsaiflows');
  });
});

describe('what a message event asks', () => {
  it('a mention, in a thread or not; a direct message, or a reply in its thread', () => {
    expect(
      readMessageEvent(
        envelope({ type: 'app_mention', user: 'U0A', text: `<@${BOT}> flows`, ts: '2.0', channel: 'C1' }),
      ),
    ).toEqual({
      kind: 'mention',
      text: 'flows',
      userId: 'U0A',
      teamId: 'T0TEAM',
      channelId: 'C1',
      ts: '2.0',
    });
    expect(
      readMessageEvent(
        envelope({
          type: 'app_mention',
          user: 'U0A',
          text: `<@${BOT}> flows`,
          ts: '2.0',
          thread_ts: '1.0',
          channel: 'C1',
        }),
      ),
    ).toMatchObject({ threadTs: '1.0' });
    expect(
      readMessageEvent(
        envelope({
          type: 'message',
          channel_type: 'im',
          user: 'U0A',
          text: 'flows',
          ts: '3.0',
          channel: 'D1',
        }),
      ),
    ).toMatchObject({ kind: 'direct-message', text: 'flows', channelId: 'D1' });
  });

  it('nothing from a bot (this one included), nor a deletion, nor Slack changing a message, nor a channel message', () => {
    const none = [
      { type: 'app_mention', user: BOT, text: `<@${BOT}> flows`, ts: '1', channel: 'C1' },
      {
        type: 'app_mention',
        user: 'U0X',
        bot_id: 'B0OTHER',
        text: `<@${BOT}> flows`,
        ts: '1',
        channel: 'C1',
      },
      {
        type: 'app_mention',
        subtype: 'bot_message',
        bot_id: 'B0X',
        text: `<@${BOT}> flows`,
        ts: '1',
        channel: 'C1',
      },
      {
        type: 'message',
        channel_type: 'im',
        user: BOT,
        bot_id: 'B0BOT',
        text: 'flows',
        ts: '1',
        channel: 'D1',
      },
      {
        type: 'message',
        channel_type: 'im',
        subtype: 'message_deleted',
        hidden: true,
        deleted_ts: '1',
        channel: 'D1',
        ts: '2',
      },
      {
        type: 'message',
        channel_type: 'im',
        subtype: 'message_changed',
        hidden: true,
        channel: 'D1',
        ts: '3',
        message: { type: 'message', user: 'U0A', text: 'flows', ts: '1', reply_count: 1 },
      },
      {
        type: 'message',
        channel_type: 'im',
        subtype: 'channel_join',
        user: 'U0A',
        text: 'joined',
        ts: '1',
        channel: 'D1',
      },
      { type: 'message', channel_type: 'channel', user: 'U0A', text: 'flows', ts: '1', channel: 'C1' },
      { type: 'app_mention', text: `<@${BOT}> flows`, ts: '1', channel: 'C1' },
      'not an event',
    ];
    for (const event of none)
      expect(readMessageEvent({ body: { event }, context }), JSON.stringify(event)).toBeUndefined();
    expect(readMessageEvent({ body: null })).toBeUndefined();
  });

  it('an edit, marked as one: a mention sent again with `edited`, a direct message changed by its person', () => {
    expect(
      readMessageEvent(
        envelope({
          type: 'app_mention',
          user: 'U0A',
          text: `<@${BOT}> flows`,
          ts: '1.0',
          channel: 'C1',
          edited: { user: 'U0A', ts: '5.0' },
        }),
      ),
    ).toMatchObject({ kind: 'mention', ts: '1.0', editedTs: '5.0' });
    expect(
      readMessageEvent(
        envelope({
          type: 'message',
          channel_type: 'im',
          subtype: 'message_changed',
          hidden: true,
          channel: 'D1',
          ts: '6.0',
          message: {
            type: 'message',
            user: 'U0A',
            text: 'flows 3',
            ts: '1.0',
            edited: { user: 'U0A', ts: '6.0' },
          },
        }),
      ),
    ).toMatchObject({ kind: 'direct-message', text: 'flows 3', ts: '1.0', editedTs: '6.0' });
  });

  it('is handed on at once by the acknowledgement, or not at all', async () => {
    const ran: Job[] = [];
    const followUps = { run: (j: Job) => void ran.push(j) };
    await ackMessageEvent(
      envelope({ type: 'app_mention', user: 'U0A', text: `<@${BOT}> flows`, ts: '1', channel: 'C1' }),
      followUps,
    );
    await ackMessageEvent(
      envelope({ type: 'app_mention', user: BOT, text: `<@${BOT}> flows`, ts: '1', channel: 'C1' }),
      followUps,
    );
    expect(ran.map((j) => j.kind)).toEqual(['mention']);
  });
});

describe('commands quoted in a reply, as typed where it is read', () => {
  const body = {
    text: 'Try `/tsai help`',
    blocks: [
      {
        type: 'section' as const,
        text: { type: 'mrkdwn' as const, text: 'Run `/tsai flow 1`, or `/tsai`; not /tsai outside code' },
      },
    ],
  };
  it('after @tsai in a thread, bare in the Messages tab, as they are for the slash command', () => {
    expect(JSON.stringify(writtenFor('mention', body))).toBe(
      JSON.stringify(body).replaceAll('`/tsai', '`@tsai'),
    );
    expect(writtenFor('direct-message', body).blocks[0]).toMatchObject({
      text: { text: 'Run `flow 1`, or `help`; not /tsai outside code' },
    });
    expect(writtenFor('command', body)).toBe(body);
    expect(writtenFor(undefined, body)).toBe(body);
  });
});
