import type { LocalMessage } from '../../localslack/types.js';
import { control, type Delivery, type Snapshot } from './api.js';
import { h, paneHeader, replaceChildren } from './dom.js';
import { type MessageListHost, messageList } from './messages.js';

/** What the pane needs of the page: who is looking, at which channel, and how messages are drawn. */
export interface AssistantHost {
  viewer(): string;
  /** The channel the viewer is looking at (none in the app's own tabs). */
  viewing(): string | undefined;
  snapshot(): Snapshot | undefined;
  messageHost(all: LocalMessage[]): MessageListHost;
  toast(message: string): void;
  /** The pane opened or closed (the sidebar shows which). */
  changed(): void;
}

/**
 * Slack's assistant pane (Agents & AI apps), beside whatever the viewer looks at: a thread of their DM with
 * the app, opened through the stand-in (`assistant_thread_started`, with the channel viewed), showing
 * what the app sets on it (its title, status line and suggested prompts, which are clicked as the person's
 * own message) and a composer. Moving to another channel while it is open tells the app
 * (`assistant_thread_context_changed`).
 */
export class AssistantPane {
  private open = false;
  private threadTs?: string;
  private told?: string;
  private lastKey = '';
  /** What the viewer is typing, kept across redraws. */
  private draft = '';

  constructor(
    private readonly root: HTMLElement,
    private readonly host: AssistantHost,
  ) {}

  get isOpen(): boolean {
    return this.open;
  }

  /** Opens the pane (a new thread the first time) or closes it. */
  async toggle(): Promise<void> {
    this.open = !this.open;
    if (this.open && !this.threadTs) await this.newChat();
    this.host.changed();
  }

  /** A new thread, as Slack's "New chat" starts one. */
  async newChat(): Promise<void> {
    const channel = this.host.viewing();
    try {
      const opened = await control<{ threadTs: string; delivery: Delivery }>('assistant', {
        user: this.host.viewer(),
        ...(channel ? { channel } : {}),
      });
      this.threadTs = opened.threadTs;
      this.told = channel;
      if (opened.delivery.status !== 200) this.host.toast('The app did not answer the assistant pane.');
    } catch (err) {
      this.host.toast(`Assistant: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.lastKey = '';
    this.host.changed();
  }

  /** The viewer moved: the app is told the channel they now view, while the pane is open. */
  viewingChanged(): void {
    const channel = this.host.viewing();
    if (!this.open || !this.threadTs || channel === this.told) return;
    this.told = channel;
    void control('assistant-context', {
      user: this.host.viewer(),
      threadTs: this.threadTs,
      ...(channel ? { channel } : {}),
    }).catch((err: unknown) => this.host.toast(String(err)));
  }

  /** Another person: their pane is their own. */
  viewerChanged(): void {
    this.open = false;
    this.threadTs = undefined;
    this.told = undefined;
    this.lastKey = '';
    this.draft = '';
  }

  private send(text: string): void {
    const threadTs = this.threadTs;
    if (!threadTs || !text.trim()) return;
    const user = this.host.viewer();
    void control('message', { user, channel: `D${user}`, text, threadTs }).catch((err: unknown) =>
      this.host.toast(String(err)),
    );
  }

  render(): void {
    this.root.classList.toggle('hidden', !this.open);
    if (!this.open) return;
    const snap = this.host.snapshot();
    const dm = snap?.channels.find((c) => c.id === `D${this.host.viewer()}`);
    const head = dm?.messages.find((m) => m.ts === this.threadTs);
    const thread = head?.assistantThread;
    const replies = (dm?.messages ?? []).filter(
      (m) => m.threadTs === this.threadTs && m.ts !== this.threadTs,
    );
    const key = JSON.stringify([this.host.viewer(), this.threadTs, thread, replies]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    const focused = document.activeElement?.getAttribute('data-role') === 'assistant-input';
    const input = h('textarea', {
      class: 'thread-input',
      rows: 2,
      'data-role': 'assistant-input',
      placeholder: 'Ask tsai — a command without its slash: flows, learn, help…',
      value: this.draft,
    });
    input.addEventListener('input', () => {
      this.draft = input.value;
    });
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
      e.preventDefault();
      this.send(input.value);
      input.value = '';
      this.draft = '';
    });
    const viewed = thread?.context.channelId;
    const viewedName = viewed ? snap?.channels.find((c) => c.id === viewed)?.name : undefined;
    replaceChildren(
      this.root,
      paneHeader('tsai', ` ${thread?.title ?? 'New chat'}`, 'Close the assistant', () => void this.toggle()),
      h(
        'div',
        { class: 'assistant-bar' },
        h(
          'span',
          { class: 'assistant-context', 'data-role': 'assistant-context' },
          viewed ? `Viewing #${viewedName ?? viewed}` : 'Viewing no channel',
        ),
        h(
          'button',
          { type: 'button', class: 'copy', 'data-role': 'assistant-new', onclick: () => void this.newChat() },
          'New chat',
        ),
      ),
      h(
        'div',
        { class: 'thread-messages', 'data-role': 'assistant-messages' },
        dm ? messageList(replies, this.host.messageHost(dm.messages)) : null,
        thread?.status
          ? h('div', { class: 'assistant-status', 'data-role': 'assistant-status' }, `tsai ${thread.status}`)
          : null,
      ),
      thread?.prompts
        ? h(
            'div',
            { class: 'assistant-prompts', 'data-role': 'assistant-prompts' },
            h('div', { class: 'side-title' }, thread.prompts.title ?? 'Suggested'),
            thread.prompts.prompts.map((p) =>
              h(
                'button',
                {
                  type: 'button',
                  class: 'assistant-prompt',
                  'data-role': 'assistant-prompt',
                  title: p.message,
                  onclick: () => this.send(p.message),
                },
                p.title,
              ),
            ),
          )
        : null,
      h('div', { class: 'thread-composer' }, input),
    );
    if (focused) input.focus();
  }
}
