import { type ApiContext, type ApiResult, conversation, fail, type Handler, str } from './api-context.js';
import type { ChannelState } from './state.js';
import type { AssistantPrompt, AssistantThreadState } from './types.js';

/** Slack shows at most four suggested prompts in a thread. */
export const MAX_PROMPTS = 4;

/**
 * The assistant pane thread a call names (`channel_id`: the person's DM with the app, `thread_ts`: the
 * thread's head), as the calling installation sees it. Only a thread the pane opened is one: any other
 * thread, or any thread where the app has no pane, is `invalid_thread_ts`.
 */
function paneThread(a: Record<string, unknown>, ctx: ApiContext): AssistantThreadState | ApiResult {
  const ch = conversation(ctx, a.channel_id);
  if (!ch) return fail('channel_not_found');
  const ts = str(a.thread_ts);
  const head = ts && ch.isIm ? ctx.state.message(ch.id, ts) : undefined;
  if (!head?.assistantThread) return fail('invalid_thread_ts');
  return head.assistantThread;
}

const isThread = (t: AssistantThreadState | ApiResult): t is AssistantThreadState => !('ok' in t);

/** What is wrong with a list of prompts, as Slack would say it; undefined when it takes them. */
function promptsProblem(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return 'prompts must be a list of at least one prompt';
  if (v.length > MAX_PROMPTS) return `at most ${MAX_PROMPTS} prompts`;
  const bad = v.findIndex(
    (p: unknown) =>
      !p ||
      typeof p !== 'object' ||
      !str((p as Record<string, unknown>).title) ||
      !str((p as Record<string, unknown>).message),
  );
  return bad >= 0 ? `prompts[${bad}] needs a title and a message` : undefined;
}

/** `assistant.threads.*`: the status line, the suggested prompts and the title of a pane thread. */
export const ASSISTANT_METHODS: Record<string, Handler> = {
  'assistant.threads.setStatus': (a, ctx) => {
    const t = paneThread(a, ctx);
    if (!isThread(t)) return t;
    if (typeof a.status !== 'string')
      return fail('invalid_arguments', ['status is required (empty clears it)']);
    if (a.status) t.status = a.status;
    else delete t.status;
    ctx.state.changed();
    return { ok: true };
  },

  'assistant.threads.setSuggestedPrompts': (a, ctx) => {
    const t = paneThread(a, ctx);
    if (!isThread(t)) return t;
    const problem = promptsProblem(a.prompts);
    if (problem) return fail('invalid_arguments', [problem]);
    const prompts = (a.prompts as AssistantPrompt[]).map((p) => ({ title: p.title, message: p.message }));
    t.prompts = { ...(str(a.title) ? { title: str(a.title)! } : {}), prompts };
    ctx.state.changed();
    return { ok: true };
  },

  'assistant.threads.setTitle': (a, ctx) => {
    const t = paneThread(a, ctx);
    if (!isThread(t)) return t;
    const title = str(a.title);
    if (!title) return fail('invalid_arguments', ['title is required']);
    t.title = title;
    ctx.state.changed();
    return { ok: true };
  },
};

/** The app replied in a pane thread: Slack clears the thread's status line, as the reply is what it waited for. */
export function clearStatusOnReply(ctx: ApiContext, ch: ChannelState, threadTs: string): void {
  const t = ch.isIm ? ctx.state.message(ch.id, threadTs)?.assistantThread : undefined;
  if (t?.status) delete t.status;
}
