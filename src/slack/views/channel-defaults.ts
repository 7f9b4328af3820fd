import { CHANNEL_DEFAULT_KEYS, type StoredChannelDefaults } from '../../core/channel-defaults.js';
import type { MessageBody } from './messages.js';
import { code, context, section, slackTime } from './mrkdwn.js';

function lines(d: StoredChannelDefaults): string[] {
  return CHANNEL_DEFAULT_KEYS.flatMap((k) => {
    const v = d[k];
    if (v === undefined) return [];
    return [`*${k}* ${code(Array.isArray(v) ? v.join(',') : v)}`];
  });
}

/** `/tsai use` (show) and the reply to `/tsai use key=value …`. */
export function channelDefaultsMessage(
  channelId: string,
  d: StoredChannelDefaults | null,
  changed = false,
): MessageBody {
  if (!d || lines(d).length === 0) {
    return {
      text: 'This channel has no defaults.',
      blocks: [
        section(`<#${channelId}> has no defaults.`),
        context(
          `Set some with ${code('/tsai use workspace=<id> datastream=<id> model=<id> assessment=<id> entities=<a,b>')}.`,
        ),
      ],
    };
  }
  const head = changed ? `Defaults for <#${channelId}> are now:` : `Defaults for <#${channelId}>:`;
  return {
    text: `${head} ${lines(d).join(', ')}`,
    blocks: [
      section(`${head}\n${lines(d).join('\n')}`),
      context(
        `Commands use them when the argument is omitted. Last changed by <@${d.updatedBy}> ${slackTime(d.updatedAt)}. \`/tsai use clear\` removes them.`,
      ),
    ],
  };
}
