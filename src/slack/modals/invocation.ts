import type { RespondArguments, RespondFn, SlashCommand } from '@slack/bolt';
import type { Logger } from '../../log.js';
import type { CommandInvocation } from '../deps.js';
import type { WebClient } from './deps.js';
import { type Destination, tellUser } from './post.js';

/**
 * A modal submission seen as the `/tsai` command it is equivalent to, so the command path's hooks
 * (`authorize` for the access policy, `recordOutcome` for the audit log) treat both the same way.
 * `respond` answers the user privately.
 */
export function invocationFor(
  client: WebClient,
  dest: Destination,
  o: { userName: string; teamId?: string; commandLine: string; log: Logger },
): CommandInvocation {
  const command: SlashCommand = {
    token: '',
    command: '/tsai',
    text: o.commandLine.replace(/^\/tsai\s*/, ''),
    response_url: dest.responseUrls[0] ?? '',
    trigger_id: '',
    user_id: dest.userId,
    user_name: o.userName,
    team_id: o.teamId ?? '',
    team_domain: '',
    channel_id: dest.channel,
    channel_name: '',
    api_app_id: '',
    via_modal: 'true',
  };
  const respond: RespondFn = async (message: string | RespondArguments) => {
    const body = (typeof message === 'string' ? { text: message } : message) as {
      text?: string;
      blocks?: never[];
    };
    const ok = await tellUser(client, dest, { text: body.text ?? '', blocks: body.blocks ?? [] }, o.log);
    return new Response(null, { status: ok ? 200 : 502 }) as unknown as Awaited<ReturnType<RespondFn>>;
  };
  return { command, client, respond };
}
