import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  types,
  ViewSubmitAction,
} from '@slack/bolt';
import { errText, type Logger } from '../log.js';
import { teamOf } from './tenant.js';

/** A button clicked, and a form sent, as Bolt hands them to a listener. */
export type Click = SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;
export type Submission = SlackViewMiddlewareArgs<ViewSubmitAction>;

/** Who clicked a button and where (a reply's, the Home's): what its follow-up needs to open a form or answer there. */
export function clickOf(body: Click['body']): {
  userId: string;
  teamId?: string;
  triggerId: string;
  channelId?: string;
  responseUrl?: string;
} {
  const teamId = teamOf(body);
  return {
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    triggerId: body.trigger_id,
    ...(body.channel?.id ? { channelId: body.channel.id } : {}),
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  };
}

/** What checking a form's values came to: kept (`value`), or what is wrong under which block. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/**
 * A private form whose check with the service is its validation, so it runs in the acknowledgement: a
 * refusal is an error under its field and nothing is kept (the form stays open); what was kept replaces
 * the form with what it now works with. A failure inside the bot (its store not answering) is said under
 * `unkept.block`, and logged. Returns what was kept, for the follow-up.
 */
export async function ackCheckedForm<T>(
  ack: Submission['ack'],
  o: {
    check: () => Promise<Checked<T>>;
    unkept: { block: string; text: string; logged: string };
    done: (kept: T) => types.ModalView;
    logger: Logger;
    who: Record<string, unknown>;
  },
): Promise<T | undefined> {
  let checked: Checked<T>;
  try {
    checked = await o.check();
  } catch (e) {
    o.logger.error({ ...o.who, err: errText(e) }, o.unkept.logged);
    checked = { ok: false, errors: { [o.unkept.block]: o.unkept.text } };
  }
  if (!checked.ok) return void (await ack({ response_action: 'errors', errors: checked.errors }));
  await ack({ response_action: 'update', view: o.done(checked.value) });
  return checked.value;
}

/** The form's tenant (the installation it was opened through) and the value of each of its inputs. */
export function formOf(body: Submission['body']): {
  teamId: string | undefined;
  value(block: string, input: string): string;
} {
  return {
    teamId: teamOf(body),
    value: (block, input) => body.view.state.values[block]?.[input]?.value ?? '',
  };
}
