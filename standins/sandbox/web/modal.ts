import type { OpenView } from '../../localslack/types.js';
import { type BlockHost, renderBlocks, type Suggestions } from './blocks.js';
import { h } from './dom.js';
import { type MrkdwnContext, plainText } from './mrkdwn.js';

/**
 * The top modal of the viewer's stack. It is redrawn only when the view, its hash or its errors change,
 * so what the user is typing survives unrelated updates; when the same view is redrawn (views.update),
 * values still in the DOM are carried over for the block/action IDs the new view keeps, as Slack does.
 */
export interface ModalHost {
  viewer: string;
  timeZone: string;
  ctx: MrkdwnContext;
  users: BlockHost['users'];
  channels: BlockHost['channels'];
  depth: number;
  /** Send the current values of every element, then submit. */
  submit(
    view: OpenView,
    values: Record<string, Record<string, unknown>>,
  ): Promise<Record<string, string> | undefined>;
  close(view: OpenView): void;
  /** A type-ahead select of the view asks the app for options. */
  suggest(view: OpenView, blockId: string, actionId: string, query: string): Promise<Suggestions>;
  action(
    view: OpenView,
    values: Record<string, Record<string, unknown>>,
    blockId: string,
    actionId: string,
    value: unknown,
  ): Promise<void>;
}

type Readers = Map<string, { blockId: string; actionId: string; read: () => unknown }>;

export class ModalRenderer {
  private key = '';
  private viewId = '';
  private readers: Readers = new Map();
  private banner: string | undefined;
  private busy = false;
  /** A submission came back with errors: the first is scrolled into view once it is drawn. */
  private errorToReveal = false;

  constructor(private readonly root: HTMLElement) {}

  private current(): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const { blockId, actionId, read } of this.readers.values()) {
      const v = read();
      if (v === undefined) continue;
      out[blockId] ??= {};
      out[blockId]![actionId] = v;
    }
    return out;
  }

  render(view: OpenView | undefined, host: ModalHost, force = false): void {
    const key = view
      ? `${view.id}|${view.hash}|${JSON.stringify(view.errors ?? {})}|${this.banner ?? ''}|${host.depth}|${host.viewer}`
      : '';
    if (key === this.key && !force) return;
    this.key = key;
    const carry = view && view.id === this.viewId ? this.current() : {};
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
    this.root.replaceChildren();
    this.readers = new Map();
    if (!view) {
      this.viewId = '';
      this.banner = undefined;
      return;
    }
    if (view.id !== this.viewId) this.banner = undefined;
    this.viewId = view.id;
    const values: Record<string, Record<string, unknown>> = structuredClone(view.values ?? {});
    for (const [b, byAction] of Object.entries(carry)) values[b] = { ...(values[b] ?? {}), ...byAction };
    const v = view.view as Record<string, unknown>;
    const errors = { ...(view.errors ?? {}) };
    const general = errors._ ?? this.banner;
    delete errors._;

    const bh: BlockHost = {
      ctx: host.ctx,
      users: host.users,
      channels: host.channels,
      timeZone: host.timeZone,
      values,
      errors,
      register: (blockId, actionId, read) =>
        this.readers.set(`${blockId}/${actionId}`, { blockId, actionId, read }),
      suggest: (blockId, actionId, query) => host.suggest(view, blockId, actionId, query),
      onAction: (blockId, actionId, value, source) => {
        if (source instanceof HTMLButtonElement) source.disabled = true;
        host
          .action(view, this.current(), blockId, actionId, value)
          .finally(() => {
            if (source instanceof HTMLButtonElement) source.disabled = false;
          })
          .catch(() => {});
      },
    };
    const submitLabel = plainText(v.submit);
    const closeLabel = plainText(v.close) || (submitLabel ? 'Cancel' : 'Close');
    const submitBtn = submitLabel
      ? h('button', { type: 'button', class: 'btn primary', 'data-role': 'submit' }, submitLabel)
      : null;
    const doSubmit = async () => {
      if (this.busy || !submitBtn) return;
      this.busy = true;
      submitBtn.disabled = true;
      submitBtn.classList.add('busy');
      try {
        const errs = await host.submit(view, this.current());
        this.banner = errs?._;
        this.errorToReveal = Object.keys(errs ?? {}).length > 0;
      } catch (err) {
        this.banner = err instanceof Error ? err.message : String(err);
      } finally {
        this.busy = false;
        submitBtn.disabled = false;
        submitBtn.classList.remove('busy');
      }
      if (this.banner) this.render(view, host, true);
      this.revealError();
    };
    submitBtn?.addEventListener('click', () => void doSubmit());

    const dialog = h(
      'div',
      {
        class: 'modal',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-label': plainText(v.title),
        'data-view-id': view.id,
        'data-callback-id': String(v.callback_id ?? ''),
      },
      h(
        'header',
        { class: 'modal-header' },
        host.depth > 1
          ? h(
              'button',
              { type: 'button', class: 'icon-btn back', title: 'Back', onclick: () => host.close(view) },
              '←',
            )
          : null,
        h('h2', null, plainText(v.title)),
        h(
          'button',
          { type: 'button', class: 'icon-btn close', title: 'Close', onclick: () => host.close(view) },
          '✕',
        ),
      ),
      h(
        'div',
        { class: 'modal-body' },
        general ? h('div', { class: 'modal-banner', role: 'alert' }, general) : null,
        renderBlocks(v.blocks, bh),
      ),
      h(
        'footer',
        { class: 'modal-footer' },
        h('button', { type: 'button', class: 'btn', onclick: () => host.close(view) }, closeLabel),
        submitBtn,
      ),
    );
    dialog.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') host.close(view);
    });
    this.root.append(h('div', { class: 'modal-backdrop' }, dialog));
    const refocus =
      (focused && this.root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)) ||
      this.root.querySelector<HTMLElement>('[autofocus]');
    refocus?.focus();
    this.revealError();
  }

  /** The errors of a submission may be drawn before or after it returns: whichever comes last scrolls. */
  private revealError(): void {
    if (!this.errorToReveal) return;
    const first = this.root.querySelector<HTMLElement>('.modal-banner, .has-error');
    if (!first) return;
    this.errorToReveal = false;
    first.scrollIntoView({ block: 'center' });
  }
}
