import { serviceRequests } from './api.js';
import { h, paneHeader, replaceChildren } from './dom.js';

/** "Service requests": what the embedded emulator received, newest first, each with its JSON body. */
export class ServicePanel {
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastKey = '';
  isOpen = false;

  constructor(
    private readonly pane: HTMLElement,
    private readonly onToggle: () => void,
  ) {}

  toggle(open = !this.isOpen): void {
    this.isOpen = open;
    this.pane.classList.toggle('hidden', !open);
    clearInterval(this.timer);
    if (open) {
      this.lastKey = '';
      void this.refresh();
      this.timer = setInterval(() => void this.refresh(), 1000);
    }
    this.onToggle();
  }

  private async refresh(): Promise<void> {
    const pane = this.pane;
    let reqs: Awaited<ReturnType<typeof serviceRequests>>;
    try {
      reqs = await serviceRequests();
    } catch (err) {
      replaceChildren(
        pane,
        h('div', { class: 'empty' }, `Could not read the emulator's log: ${String(err)}`),
      );
      return;
    }
    const key = JSON.stringify(reqs.map((r) => r.seq));
    if (key === this.lastKey) return;
    this.lastKey = key;
    const api = reqs.filter((r) => !r.path.startsWith('/_emulator'));
    replaceChildren(
      pane,
      paneHeader('Service requests', ' what the emulator received', 'Close', () => this.toggle(false)),
      h(
        'div',
        { class: 'service-list' },
        api.length === 0 ? h('div', { class: 'empty' }, 'No requests yet.') : null,
        api
          .slice()
          .reverse()
          .map((r) =>
            h(
              'details',
              { class: 'service-req' },
              h(
                'summary',
                null,
                h('span', { class: ['method', r.method.toLowerCase()] }, r.method),
                h('span', { class: 'path' }, r.path.replace(/^\/api\//, '')),
                r.user === undefined
                  ? null
                  : h('span', { class: 'who', title: 'whose token' }, r.user ? `as ${r.user}` : 'no token'),
                h('span', { class: ['status', (r.status ?? 0) >= 400 && 'bad'] }, String(r.status ?? '')),
              ),
              r.body !== undefined && r.body !== null
                ? h('pre', { class: 'service-body' }, JSON.stringify(r.body, null, 2))
                : null,
            ),
          ),
      ),
    );
  }
}
