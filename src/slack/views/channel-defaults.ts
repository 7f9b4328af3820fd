import { CHANNEL_DEFAULT_KEYS, type StoredChannelDefaults } from '../../core/channel-defaults.js';
import { describeShifts, formatShifts, shiftSpans } from '../../core/time.js';
import type { MessageBody } from './messages.js';
import { code, context, section, slackTime } from './mrkdwn.js';

function lines(d: StoredChannelDefaults): string[] {
  const keys = CHANNEL_DEFAULT_KEYS.flatMap((k) => {
    const v = d[k];
    if (v === undefined) return [];
    return [`*${k}* ${code(Array.isArray(v) ? v.join(',') : v)}`];
  });
  return [...keys, ...shiftsLine(d)];
}

/** The shifts as declared, and what each covers: ranges such as “last shift” read them. */
function shiftsLine(d: StoredChannelDefaults): string[] {
  const spans = shiftSpans(d.shifts);
  if (!d.shifts || !spans) return [];
  return [`*shifts* ${code(formatShifts(d.shifts))} (${describeShifts(spans)})`];
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
          `Set some with ${code('/tsai use workspace=<id> datastream=<id> model=<id> assessment=<id> entities=<a,b>')}, and the channel's shifts with ${code('/tsai use shifts=06:00,14:00,22:00')}.`,
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
        `Commands use them when the argument is omitted${d.shifts?.length ? ', and time ranges such as “last shift” or “the night shift yesterday” read the shifts' : ''}. Last changed by <@${d.updatedBy}> ${slackTime(d.updatedAt)}. \`/tsai use clear\` removes them.`,
      ),
    ],
  };
}
