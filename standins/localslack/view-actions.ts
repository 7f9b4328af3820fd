import { interactionBase, type LocalSlackContext, userRef, viewOf } from './context.js';
import type { LocalSlack } from './local-slack-api.js';
import { isExternalSelect, resolveChoice } from './selects.js';
import { applySubmissionAck, clientSideErrors } from './submission.js';
import type { Delivery, OpenView } from './types.js';
import { actionPayload, type ElementRef, findElement } from './views.js';
import { viewPayload } from './webapi.js';

type Args<K extends keyof LocalSlack> = LocalSlack[K] extends (a: infer A) => unknown ? A : never;

/** Whether Slack sends block_actions when this element changes. */
const dispatches = (ref: ElementRef) => ref.blockType !== 'input' || ref.block.dispatch_action === true;

function store(ov: OpenView, blockId: string, actionId: string, value: unknown): void {
  ov.values[blockId] ??= {};
  ov.values[blockId]![actionId] = value;
}

export function typeIntoView(
  ctx: LocalSlackContext,
  { user, viewId, blockId, actionId, value }: Args<'typeIntoView'>,
): void {
  const ov = viewOf(ctx, user, viewId);
  const ref = findElement(ov.view.blocks, actionId, blockId);
  store(ov, blockId, actionId, ref ? resolveChoice(ov, ref, value) : value);
  ctx.state.changed();
}

export async function pickOptions(
  ctx: LocalSlackContext,
  { user, viewId, blockId, actionId, values }: Args<'pickOptions'>,
): Promise<Delivery | undefined> {
  const ov = viewOf(ctx, user, viewId);
  const ref = findElement(ov.view.blocks, actionId, blockId);
  if (!ref || !isExternalSelect(ref.element))
    throw new Error(`local slack: view ${viewId} has no type-ahead select ${blockId}/${actionId}`);
  const single = ref.element.type === 'external_select' && values.length <= 1;
  const chosen = resolveChoice(ov, ref, single ? (values[0] ?? null) : values);
  if (dispatches(ref)) return sendViewAction(ctx, { user, viewId, blockId, actionId, value: chosen });
  store(ov, blockId, actionId, chosen);
  ctx.state.changed();
  return undefined;
}

export async function sendViewAction(
  ctx: LocalSlackContext,
  { user, viewId, actionId, blockId, value }: Args<'sendViewAction'>,
): Promise<Delivery> {
  const u = userRef(ctx, user);
  const ov = viewOf(ctx, u.id, viewId);
  const ref = findElement(ov.view.blocks, actionId, blockId);
  if (!ref) throw new Error(`local slack: view ${viewId} has no element ${blockId}/${actionId}`);
  const chosen = resolveChoice(ov, ref, value);
  if (chosen !== undefined && ref.element.type !== 'button' && ref.element.type !== 'overflow')
    store(ov, blockId, actionId, chosen);
  const triggerId = ctx.state.issueTrigger(u.id);
  const payload = {
    ...interactionBase(ctx, 'block_actions', u),
    container: { type: 'view', view_id: ov.id },
    trigger_id: triggerId,
    view: viewPayload(ov),
    actions: [actionPayload(ref, chosen, ctx.state.nextTs())],
  };
  ctx.state.changed();
  const d = await ctx.bot.deliverPayload(payload);
  return { ...d, triggerId };
}

/** The user's top modal, which only can be submitted or closed. */
function topModal(ctx: LocalSlackContext, user: string, viewId: string): { stack: OpenView[]; ov: OpenView } {
  const stack = ctx.state.stack(userRef(ctx, user).id);
  const ov = stack[stack.length - 1];
  if (!ov || ov.id !== viewId) throw new Error(`local slack: view ${viewId} is not ${user}'s top modal`);
  return { stack, ov };
}

export async function submitView(
  ctx: LocalSlackContext,
  { user, viewId, values = {} }: Args<'submitView'>,
): Promise<Delivery> {
  const u = userRef(ctx, user);
  const { stack, ov } = topModal(ctx, user, viewId);
  for (const [b, byAction] of Object.entries(values)) {
    for (const [a, v] of Object.entries(byAction)) {
      const ref = findElement(ov.view.blocks, a, b);
      store(ov, b, a, ref ? resolveChoice(ov, ref, v) : v);
    }
  }
  const clientErrors = clientSideErrors(ov);
  if (clientErrors) {
    ov.errors = clientErrors;
    ctx.state.changed();
    return { status: 0, body: '', delivered: false, errors: clientErrors };
  }
  const triggerId = ctx.state.issueTrigger(u.id);
  const d = await ctx.bot.deliverPayload({
    ...interactionBase(ctx, 'view_submission', u),
    trigger_id: triggerId,
    view: viewPayload(ov),
    response_urls: [],
  });
  const out: Delivery = { ...d, triggerId };
  if (d.status !== 200) {
    out.errors = { _: 'We had some trouble connecting. Try again?' };
    return out;
  }
  const errors = applySubmissionAck(ctx.state, stack, ov, d);
  if (errors) out.errors = errors;
  ctx.state.changed();
  return out;
}

/** The user closes (cancels) the top modal; view_closed goes only when the view asked for it. */
export async function closeView(
  ctx: LocalSlackContext,
  { user, viewId }: Args<'closeView'>,
): Promise<Delivery | undefined> {
  const u = userRef(ctx, user);
  const { stack, ov } = topModal(ctx, user, viewId);
  if (ov.view.clear_on_close === true) stack.length = 0;
  else stack.pop();
  ctx.state.changed();
  if (ov.view.notify_on_close !== true) return undefined;
  return ctx.bot.deliverPayload({
    ...interactionBase(ctx, 'view_closed', u),
    view: viewPayload(ov),
    is_cleared: ov.view.clear_on_close === true,
  });
}
