import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { FollowUps } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';

/** The buttons under a reading: their action IDs, and the job each hands on. */
export const PLAIN_ACTION = { run: 'plain_run', other: 'plain_other' } as const;
export const PLAIN_ACTIONS = new RegExp(`^(${PLAIN_ACTION.run}|${PLAIN_ACTION.other})$`);

/** A button's value: the reading's ID, marked when what it runs opens a form. */
const OPENS_FORM = '|form';
export const buttonValue = (id: string, opensForm: boolean) => (opensForm ? `${id}${OPENS_FORM}` : id);

/**
 * "Run it" or "Not what I meant", acked at once: what it runs may open a form, whose trigger lasts 3
 * seconds, so the follow-up gets the click's.
 */
export async function ackPlainAction(
  {
    ack,
    body,
    action,
  }: Pick<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const teamId = teamOf(body);
  const value = action.value ?? '';
  const form = value.endsWith(OPENS_FORM);
  const clicked = {
    id: form ? value.slice(0, -OPENS_FORM.length) : value,
    userId: body.user.id,
    ...(teamId ? { teamId } : {}),
    triggerId: body.trigger_id,
    ...(body.response_url ? { responseUrl: body.response_url } : {}),
  };
  followUps.run(
    action.action_id === PLAIN_ACTION.run
      ? { kind: 'plain-run', ...clicked, ...(form ? { form } : {}) }
      : { kind: 'plain-other', ...clicked },
  );
}
