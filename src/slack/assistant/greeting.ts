import type { MessageBody } from '../views/messages.js';
import { code, context, mention, section } from '../views/mrkdwn.js';
import type { ViewedChannel } from './jobs.js';
import type { Prompt } from './prompts.js';

/**
 * What the pane says when a person opens it: how to ask (a command as `/tsai` takes it, without the
 * slash), the prompts below as examples, and what the channel they view is for: its defaults fill what a
 * command leaves out, and what they start is announced there for their team.
 */
export function greetingMessage(
  userId: string,
  prompts: readonly Prompt[],
  viewed?: ViewedChannel,
): MessageBody {
  const examples = prompts.map((p) => code(p.message)).join(', ');
  // The slash command named as text: a command quoted in code is written as the pane types it.
  const hello =
    `Hi ${mention(userId)}! Ask me here what you would ask with /tsai, without the slash` +
    (examples ? `: ${examples}, or ${code('help')}.` : `. Type ${code('help')} for every command.`);
  const place = viewed
    ? `You are viewing <#${viewed.channelId}>: its defaults fill in what you leave out, and what you start is announced there for your team.`
    : 'Open me from a channel to use its defaults and announce what you start there; from here, it is announced in this conversation.';
  const text = `${hello} ${place}`;
  return {
    text,
    blocks: [
      section(`:wave: ${hello}`),
      context(`${place} A suggestion only opens a form or looks something up.`),
    ],
  };
}
