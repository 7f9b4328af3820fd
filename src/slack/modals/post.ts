import type { Logger } from '../../log.js';
import type { MessageBody } from '../views/messages.js';
import { errText, type WebClient } from './deps.js';

export interface Destination {
  channel: string;
  userId: string;
  /** response_urls that post into `channel` (from the command, or a conversations_select), best first. */
  responseUrls: string[];
}

async function postToResponseUrl(url: string, body: Record<string, unknown>): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return res.ok;
}

/**
 * Posts a result in the channel as the command path does (through a response_url, so the bot need not be a
 * member), falling back to chat.postMessage. Returns false when nothing worked.
 */
export async function postInChannel(client: WebClient, dest: Destination, body: MessageBody, log: Logger) {
  for (const url of dest.responseUrls) {
    try {
      if (await postToResponseUrl(url, { response_type: 'in_channel', replace_original: false, ...body }))
        return true;
    } catch (e) {
      log.info({ err: errText(e) }, 'response_url post failed; trying the next way');
    }
  }
  try {
    await client.chat.postMessage({ channel: dest.channel, text: body.text, blocks: body.blocks });
    return true;
  } catch (e) {
    log.warn({ err: errText(e), channel: dest.channel }, 'could not post the result in the channel');
    return false;
  }
}

/** Tells only the user: ephemeral in the channel, else a direct message from the app. */
export async function tellUser(client: WebClient, dest: Destination, body: MessageBody, log: Logger) {
  for (const url of dest.responseUrls) {
    try {
      if (await postToResponseUrl(url, { response_type: 'ephemeral', replace_original: false, ...body }))
        return true;
    } catch (e) {
      log.info({ err: errText(e) }, 'response_url post failed; trying the next way');
    }
  }
  if (dest.channel) {
    try {
      await client.chat.postEphemeral({
        channel: dest.channel,
        user: dest.userId,
        text: body.text,
        blocks: body.blocks,
      });
      return true;
    } catch (e) {
      log.info({ err: errText(e) }, 'ephemeral failed; sending a direct message');
    }
  }
  try {
    await client.chat.postMessage({ channel: dest.userId, text: body.text, blocks: body.blocks });
    return true;
  } catch (e) {
    log.warn({ err: errText(e) }, 'could not reach the user');
    return false;
  }
}
