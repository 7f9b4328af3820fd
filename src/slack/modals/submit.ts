import { commandLineOf } from '../../core/forms/command-line.js';
import type { Draft } from '../../core/forms/draft.js';
import type { ModalFields } from '../../core/forms/fields.js';
import { validateModal } from '../../core/forms/validate.js';
import { specById } from '../../core/grammar/commands.js';
import { defaultName } from '../../core/names.js';
import { execute } from '../../core/operations/execute.js';
import type { OpFailure } from '../../core/outcome.js';
import { errorMessage, type Invocation, resultMessage } from '../views/messages.js';
import { MODAL_ACTION } from '../views/modals/ids.js';
import { decodeMeta, type ModalMeta } from '../views/modals/metadata.js';
import { readModalState, type StateValues } from '../views/modals/state.js';
import { type ModalDeps, OPERATION_WORD, type WebClient } from './deps.js';
import type { DraftKeeper } from './drafts.js';
import { invocationFor } from './invocation.js';
import { type Destination, postInChannel, tellUser } from './post.js';

export interface SubmissionBody {
  user: { id: string; name?: string; username?: string };
  team?: { id: string } | null;
  view: { private_metadata?: string; state?: { values: StateValues } };
  response_urls?: { response_url: string; channel_id: string }[];
}

export type SubmissionAck = { response_action: 'errors'; errors: Record<string, string> } | undefined;

/** What happens after the ack, when the form was valid. */
export type AfterAck = () => Promise<void>;

/**
 * Validates synchronously (no Slack or service call unless the zone is not yet known) and returns the ack
 * body plus, for a valid form, the work to run after the ack: create the flow, post the result.
 */
export async function handleSubmission(
  deps: ModalDeps,
  client: WebClient,
  drafts: DraftKeeper,
  body: SubmissionBody,
): Promise<{ ack: SubmissionAck; after?: AfterAck }> {
  const meta = decodeMeta(body.view.private_metadata);
  const userId = body.user.id;
  if (!meta) {
    deps.logger.warn({ user: userId }, 'modal submission without readable private_metadata');
    return { ack: undefined };
  }
  const { fields, form } = readModalState(meta, body.view.state?.values);
  const now = deps.now();
  const timeZone = meta.timeZone ?? (await deps.zoneOf(userId));
  // Looked up with the zone: a meta that has the zone but no locale means Slack gave none.
  const locale = meta.timeZone ? meta.locale : (await deps.users.lookup(userId)).locale;
  const userName =
    meta.userName ?? (await deps.users.lookup(userId)).name ?? body.user.username ?? body.user.name ?? userId;
  const outcome = validateModal(meta.kind, form, {
    now,
    timeZone,
    ...(locale ? { locale } : {}),
    defaultName: defaultName(OPERATION_WORD[meta.kind], userName, now),
    needsChannel: !meta.channel,
  });
  if (!outcome.ok) return { ack: { response_action: 'errors', errors: outcome.errors } };

  const channel = meta.channel ?? outcome.channel!;
  const dest: Destination = {
    channel,
    userId,
    responseUrls: [
      ...(body.response_urls ?? []).filter((r) => r.channel_id === channel).map((r) => r.response_url),
      ...(meta.responseUrl ? [meta.responseUrl] : []),
    ],
  };
  const request = outcome.request;
  return {
    ack: undefined,
    after: async () => {
      const log = deps.logger.child({ user: userId, channel, modal: meta.kind });
      const inv: Invocation = { userId, commandText: commandLineOf(meta.kind, fields) };
      const hookInv = invocationFor(client, dest, {
        userName,
        teamId: body.team?.id,
        commandLine: inv.commandText,
        log,
      });
      if (deps.hooks.authorize) {
        // A modal from a global shortcut never passed the command's check; one from a command is checked
        // again for the channel it posts in.
        const verdict = await deps.hooks
          .authorize({ ...hookInv, spec: specById(meta.kind) })
          .catch((e: unknown) => {
            log.error({ err: e instanceof Error ? e.message : String(e) }, 'authorize hook failed');
            return {
              allowed: false as const,
              message: 'The access check failed; nothing was created. Try again.',
            };
          });
        if (!verdict.allowed) {
          await tellFailure(
            client,
            drafts,
            dest,
            meta,
            fields,
            {
              ok: false,
              message: verdict.message,
              ...('detailMrkdwn' in verdict && verdict.detailMrkdwn
                ? { detailMrkdwn: verdict.detailMrkdwn }
                : {}),
            },
            inv,
            log,
          );
          return;
        }
      }
      let result: Awaited<ReturnType<typeof execute>>;
      try {
        result = await execute(request, deps.service, timeZone);
      } catch (e) {
        log.error(
          { err: e instanceof Error ? e.message : String(e) },
          'modal submission failed inside the bot',
        );
        result = {
          ok: false,
          message:
            "Something went wrong inside the bot (the error is in its log). Check the service's Activity view before trying again.",
          outcomeUnknown: true,
        };
      }
      log.info(
        { op: request.kind, ok: result.ok, flowId: result.ok ? result.flow?.id : undefined },
        'modal handled',
      );
      if (deps.hooks.recordOutcome) {
        await deps.hooks.recordOutcome({ ...hookInv, request, outcome: result }).catch((e: unknown) => {
          log.error({ err: e instanceof Error ? e.message : String(e) }, 'recordOutcome hook failed');
        });
      }
      if (result.ok) {
        if (await postInChannel(client, dest, resultMessage(result, inv), log)) return;
        result = {
          ok: false,
          message: `The flow was created${result.flow ? ` (flow ${result.flow.id}, ${result.flow.status})` : ''}, but the result could not be posted in the channel: invite the bot to it.`,
        };
        await tellUser(client, dest, errorMessage(result, inv), log);
        return;
      }
      await tellFailure(client, drafts, dest, meta, fields, result, inv, log);
    },
  };
}

async function tellFailure(
  client: WebClient,
  drafts: DraftKeeper,
  dest: Destination,
  meta: ModalMeta,
  fields: ModalFields,
  failure: OpFailure,
  inv: Invocation,
  log: ModalDeps['logger'],
) {
  const draft: Draft = { kind: meta.kind, userId: dest.userId, channel: meta.channel, fields };
  const message = errorMessage(failure, inv);
  try {
    const value = await drafts.save(draft);
    message.blocks.push({
      type: 'actions',
      block_id: 'modal_reopen',
      elements: [
        {
          type: 'button',
          action_id: MODAL_ACTION.reopen,
          text: { type: 'plain_text', text: 'Reopen with my inputs', emoji: true },
          value,
          style: 'primary',
        },
      ],
    });
  } catch (e) {
    log.warn({ err: e instanceof Error ? e.message : String(e) }, 'could not keep the typed values');
  }
  await tellUser(client, dest, message, log);
}
