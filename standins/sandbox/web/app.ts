import type { LocalMessage, OpenView } from '../../localslack/types.js';
import {
  ControlError,
  config,
  control,
  type Delivery,
  onChange,
  type SandboxConfig,
  type Snapshot,
  snapshot,
} from './api.js';
import { AssistantPane } from './assistant-pane.js';
import { type BlockHost, renderBlocks, type Suggestions } from './blocks.js';
import { autosize, setupComposerExtras } from './composer.js';
import { h, paneHeader, replaceChildren } from './dom.js';
import { avatar, messageList } from './messages.js';
import { ModalRenderer } from './modal.js';
import type { MrkdwnContext } from './mrkdwn.js';
import { ServicePanel } from './service-panel.js';
import { type SidebarModel, sidebar } from './sidebar.js';
import { WorkflowPanel } from './workflow-panel.js';
import { clock } from './zones.js';

/** The sandbox page: Slack's layout over the stand-in's snapshot, refreshed on every change event. */
interface Ui {
  cfg: SandboxConfig;
  viewer: string;
  /** A channel ID, or `app` for the bot's App Home / messages. */
  channel: string;
  appTab: 'home' | 'messages';
  thread?: string;
  snap?: Snapshot;
  highlight?: string;
  seen: Map<string, number>;
  pendingCommand: boolean;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let ui: Ui;
const modal = new ModalRenderer($('modal-root'));
const service = new ServicePanel($('service-pane'), () => renderSidebar());
const workflows = new WorkflowPanel(
  $('workflow-pane'),
  () => ui.viewer,
  () => renderSidebar(),
  (message) => toast(message),
);
const APP = 'app';
const assistant = new AssistantPane($('assistant-pane'), {
  viewer: () => ui.viewer,
  viewing: () => (ui.channel === APP ? undefined : ui.channel),
  snapshot: () => ui.snap,
  messageHost: (all) => messageHost(all, true),
  toast: (message) => toast(message),
  changed: () => render(),
});

function toast(message: string, kind: 'error' | 'info' = 'error'): void {
  const t = h('div', { class: ['toast', kind], role: 'status' }, message);
  $('toasts').append(t);
  setTimeout(() => t.remove(), 6000);
}

function user(id: string) {
  return ui.snap?.users.find((u) => u.id === id) ?? ui.cfg.users.find((u) => u.id === id);
}
const viewerTz = () => user(ui.viewer)?.tz ?? 'UTC';

const ctx: MrkdwnContext = {
  userName: (id) => user(id)?.name,
  channelName: (id) => ui.snap?.channels.find((c) => c.id === id)?.name,
  groupHandle: (id) => ui.cfg.usergroups.find((g) => g.id === id)?.handle,
  timeZone: () => viewerTz(),
  permalink: (channel, digits) => {
    const ch = ui.snap?.channels.find((c) => c.id === channel);
    const m = ch?.messages.find((x) => x.ts.replace('.', '') === digits);
    if (!ch || !m) return undefined;
    return () => {
      go(ch.isIm ? APP : ch.id, m.threadTs);
      ui.appTab = 'messages';
      ui.highlight = m.ts;
      render();
      document.querySelector(`[data-ts="${CSS.escape(m.ts)}"]`)?.scrollIntoView({ block: 'center' });
    };
  },
};

function dmId(): string {
  return `D${ui.viewer}`;
}

/** The conversation shown: a channel, or the viewer's direct messages with the app (opened on first message). */
function channelId(): string {
  return ui.channel === APP ? dmId() : ui.channel;
}

/** Whether the viewer may type in the app's Messages tab (`messages_tab_read_only_enabled` off). */
const messagesWritable = () => ui.snap?.app.messagesTabReadOnly !== true;

function topLevel(ms: LocalMessage[]): LocalMessage[] {
  return ms.filter((m) => m.threadTs === undefined || m.threadTs === m.ts || m.broadcast === true);
}

function saveLocation(): void {
  const q = new URLSearchParams({ user: ui.viewer, channel: ui.channel });
  if (ui.thread) q.set('thread', ui.thread);
  history.replaceState(null, '', `#${q}`);
}

function go(channel: string, thread?: string): void {
  ui.channel = channel;
  ui.thread = thread;
  ui.highlight = undefined;
  saveLocation();
}

async function deliver(what: string, p: Promise<Delivery>): Promise<Delivery | undefined> {
  try {
    const d = await p;
    if (d.delivered === false && d.status === 0 && !d.errors)
      toast(`${what}: the app did not answer (${d.body || 'no response'}). Is the bot running?`);
    else if (d.status !== 0 && d.status !== 200) toast(`${what}: the app answered HTTP ${d.status}.`);
    return d;
  } catch (err) {
    toast(`${what}: ${err instanceof ControlError || err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** A type-ahead select asks the app for options through the stand-in (Slack's block_suggestion). */
async function suggest(
  where: { viewId: string } | { channel: string; messageTs: string },
  blockId: string,
  actionId: string,
  value: string,
): Promise<Suggestions> {
  const d = await control('options', { user: ui.viewer, ...where, blockId, actionId, value });
  if (d.delivered === false && d.status === 0)
    return { options: [], error: d.body ? `The app did not answer (${d.body}).` : 'Type more to search.' };
  if (d.status !== 200) return { options: [], error: `The app answered HTTP ${d.status}.` };
  if (d.errors?._) return { options: [], error: `Slack would refuse the app's options: ${d.errors._}` };
  return { options: d.options ?? [] };
}

/** Tabs of the app's conversation, as its manifest enables them. */
function appTabs(): ('home' | 'messages')[] {
  const app = ui.snap?.app;
  const tabs: ('home' | 'messages')[] = [];
  if (app?.homeTabEnabled !== false) tabs.push('home');
  if (app?.messagesTabEnabled !== false) tabs.push('messages');
  return tabs;
}

/** The viewer opens one of the app's tabs: Slack sends app_home_opened on every visit, for either tab. */
function openAppTab(tab?: 'home' | 'messages'): void {
  const tabs = appTabs();
  ui.appTab = tab && tabs.includes(tab) ? tab : (tabs[0] ?? 'messages');
  render();
  if (tabs.includes(ui.appTab))
    void deliver('App Home', control('open-home', { user: ui.viewer, tab: ui.appTab }));
}

// ---- sidebar -------------------------------------------------------------------------------------

function unread(channel: string, count: number): number {
  const key = `${ui.viewer}|${channel}`;
  if (channel === channelId() || !ui.seen.has(key)) ui.seen.set(key, count);
  return Math.max(0, count - (ui.seen.get(key) ?? count));
}

function renderSidebar(): void {
  const snap = ui.snap;
  if (!snap) return;
  const dm = snap.channels.find((c) => c.id === dmId());
  replaceChildren(
    $('sidebar'),
    sidebar({
      people: ui.cfg.users.filter((u) => !u.isBot),
      viewer: ui.viewer,
      current: ui.channel,
      channels: snap.channels
        .filter((c) => !c.isIm)
        .map((c) => ({ ...c, unread: unread(c.id, topLevel(c.messages).length) })),
      app: { id: APP, unread: dm ? unread(dm.id, topLevel(dm.messages).length) : 0 },
      botUserId: ui.cfg.botUserId,
      service: ui.cfg.serviceLog ? { open: service.isOpen } : undefined,
      workflows: ui.cfg.workflows ? { open: workflows.isOpen } : undefined,
      assistant: snap.app.assistantView ? { open: assistant.isOpen } : undefined,
      identity: ui.cfg.serviceIdentities?.[ui.viewer],
      workspace: workspaceOf(snap),
      command: ui.cfg.command,
      onCopy: copyToken,
      onUser: switchUser,
      onChannel: (id) => {
        const opening = id === APP && ui.channel !== APP;
        go(id);
        if (opening) openAppTab();
        else render();
      },
      onService: () => service.toggle(),
      onWorkflows: () => void workflows.toggle(),
      onAssistant: () => void assistant.toggle(),
    }),
  );
}

/** The viewer's workspace, as the snapshot says it: its name, and whether the app is installed there. */
function workspaceOf(snap: Snapshot): SidebarModel['workspace'] {
  const team = snap.teams.find((t) => t.id === snap.teamId);
  const installed = snap.installs.some((i) =>
    i.isEnterpriseInstall ? i.enterpriseId === team?.enterpriseId : i.teamId === snap.teamId,
  );
  const service = ui.cfg.workspaceServices?.[snap.teamId];
  return {
    name: team?.name ?? 'Local Slack',
    installed,
    ...(ui.cfg.installUrl ? { installUrl: ui.cfg.installUrl } : {}),
    ...(service ? { service } : {}),
  };
}

function copyToken(token: string): void {
  navigator.clipboard.writeText(token).then(
    () => toast(`Token copied. Paste it into the form ${ui.cfg.command} connect opens.`, 'info'),
    () => toast('Could not copy: select the token and copy it by hand.'),
  );
}

// ---- main pane -----------------------------------------------------------------------------------

let lastMainKey = '';

function messageHost(all: LocalMessage[], inThread: boolean) {
  return {
    viewer: ui.viewer,
    timeZone: viewerTz(),
    ctx,
    botUserId: ui.cfg.botUserId,
    users: ui.snap?.users ?? [],
    channels: ui.snap?.channels ?? [],
    all,
    inThread,
    highlightTs: ui.highlight,
    suggest: (m: LocalMessage, blockId: string, actionId: string, query: string) =>
      suggest({ channel: m.channel, messageTs: m.ts }, blockId, actionId, query),
    onAction: (m: LocalMessage, blockId: string, actionId: string, value: unknown, source: HTMLElement) => {
      if (source instanceof HTMLButtonElement) source.disabled = true;
      void deliver(
        'Click',
        control('click', { user: ui.viewer, channel: m.channel, messageTs: m.ts, actionId, blockId, value }),
      ).finally(() => {
        if (source instanceof HTMLButtonElement) source.disabled = false;
      });
    },
    openThread: (ts: string) => {
      ui.thread = ts;
      saveLocation();
      render();
    },
  };
}

function renderHeader(): void {
  const snap = ui.snap!;
  if (ui.channel === APP) {
    replaceChildren(
      $('pane-header'),
      h(
        'div',
        { class: 'pane-title' },
        avatar(ui.cfg.botUserId, 'tsai', true, 'small'),
        h('span', null, 'tsai'),
      ),
      h(
        'div',
        { class: 'tabs', role: 'tablist' },
        appTabs().map((tab) =>
          h(
            'button',
            {
              type: 'button',
              role: 'tab',
              class: ['tab', ui.appTab === tab && 'active'],
              'aria-selected': String(ui.appTab === tab),
              'data-tab': tab,
              onclick: () => openAppTab(tab),
            },
            tab === 'home' ? 'Home' : 'Messages',
          ),
        ),
      ),
    );
    return;
  }
  const ch = snap.channels.find((c) => c.id === ui.channel);
  replaceChildren(
    $('pane-header'),
    h(
      'div',
      { class: 'pane-title' },
      h('span', { class: 'hash' }, '#'),
      h('span', null, ch?.name ?? ui.channel),
    ),
    h(
      'div',
      { class: 'pane-sub' },
      `${ch?.id ?? ''} · viewing as @${user(ui.viewer)?.name ?? ui.viewer} (${viewerTz()}, ${clock(Date.now(), viewerTz())})`,
    ),
  );
}

function homeNode(view: OpenView | undefined): HTMLElement {
  if (!view)
    return h(
      'div',
      { class: 'empty' },
      h('div', { class: 'empty-title' }, 'No App Home published'),
      'The app has not published a Home tab for you yet (Slack shows a spinner until it does).',
    );
  const host: BlockHost = {
    ctx,
    users: ui.snap?.users ?? [],
    channels: ui.snap?.channels ?? [],
    timeZone: viewerTz(),
    values: view.values,
    onType: (blockId, actionId, value) =>
      void control('type', { user: ui.viewer, viewId: view.id, blockId, actionId, value }).catch(() => {}),
    onAction: (blockId, actionId, value) =>
      void deliver(
        'Action',
        control('view-action', { user: ui.viewer, viewId: view.id, actionId, blockId, value }),
      ),
    suggest: (blockId, actionId, query) => suggest({ viewId: view.id }, blockId, actionId, query),
  };
  return h(
    'div',
    { class: 'home', 'data-view-id': view.id },
    renderBlocks((view.view as { blocks?: unknown }).blocks, host),
  );
}

function renderMain(): void {
  const snap = ui.snap!;
  renderHeader();
  const list = $('messages');
  const showHome = ui.channel === APP && ui.appTab === 'home';
  const id = channelId();
  const ch = id ? snap.channels.find((c) => c.id === id) : undefined;
  const msgs = ch?.messages ?? [];
  // Home is redrawn when the app publishes (a new hash), not while the user types or searches in it.
  const key = JSON.stringify([
    ui.viewer,
    ui.channel,
    ui.appTab,
    ui.highlight,
    showHome ? [snap.home?.id, snap.home?.hash] : msgs,
    snap.users.map((u) => u.tz),
  ]);
  if (key !== lastMainKey) {
    lastMainKey = key;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    if (showHome) replaceChildren(list, homeNode(snap.home));
    else if (msgs.length === 0)
      replaceChildren(
        list,
        h(
          'div',
          { class: 'empty' },
          h(
            'div',
            { class: 'empty-title' },
            ui.channel === APP ? 'No messages with tsai yet' : 'No messages yet',
          ),
          ui.channel === APP
            ? messagesWritable()
              ? 'Type help below, or any command without its slash: flows, workspace show …'
              : 'The app writes to you here; its Messages tab is read-only.'
            : `Type ${ui.cfg.command} help below to get started, or mention @tsai in a thread.`,
        ),
      );
    else replaceChildren(list, messageList(topLevel(msgs), messageHost(msgs, false)));
    if (atBottom || ui.pendingCommand) list.scrollTop = list.scrollHeight;
  }
  const composerOff = showHome || (ui.channel === APP && !messagesWritable());
  $('composer').classList.toggle('hidden', composerOff);
  const input = $<HTMLTextAreaElement>('composer-input');
  input.placeholder =
    ui.channel === APP
      ? 'Message tsai — type help, or a command without its slash'
      : `Message #${ch?.name ?? ui.channel} — try ${ui.cfg.command} help, or @tsai <command>`;
}

let lastThreadKey = '';
/**
 * What the viewer has typed in the open thread's box. The pane is drawn again whenever the thread changes
 * (a reply, a reaction, a status turning), and what was typed must survive that, as in Slack.
 */
let threadDraft = { key: '', text: '' };

function renderThread(): void {
  const pane = $('thread-pane');
  const id = channelId();
  const ch = id ? ui.snap?.channels.find((c) => c.id === id) : undefined;
  const parent = ui.thread ? ch?.messages.find((m) => m.ts === ui.thread) : undefined;
  pane.classList.toggle('hidden', !parent);
  if (!parent || !ch) {
    lastThreadKey = '';
    return;
  }
  const replies = ch.messages.filter((m) => m.threadTs === parent.ts && m.ts !== parent.ts);
  const counted = replies.filter((m) => m.ephemeralTo === undefined).length;
  const key = JSON.stringify([ui.viewer, parent, replies]);
  if (key === lastThreadKey) return;
  lastThreadKey = key;
  const draftKey = JSON.stringify([ui.viewer, ch.id, parent.ts]);
  if (threadDraft.key !== draftKey) threadDraft = { key: draftKey, text: '' };
  const draft = threadDraft;
  const focused = document.activeElement?.getAttribute('data-role') === 'thread-input';
  const input = h('textarea', {
    class: 'thread-input',
    'data-role': 'thread-input',
    rows: 1,
    placeholder: ch.isIm ? 'Reply…' : 'Reply… (ask the bot with @tsai <command>)',
    value: draft.text,
  });
  input.addEventListener('input', () => {
    draft.text = input.value;
  });
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    // Slack runs no slash command in a thread; it says so, and the text stays.
    if (text.startsWith(ui.cfg.command) && !ch.isIm) {
      toast(
        `${ui.cfg.command} is not supported in threads. Mention the app instead: @tsai ${text.slice(ui.cfg.command.length).trim()}`,
      );
      return;
    }
    input.value = '';
    draft.text = '';
    control('message', { user: ui.viewer, channel: ch.id, text, threadTs: parent.ts }).catch((err: unknown) =>
      toast(String(err)),
    );
  });
  replaceChildren(
    pane,
    paneHeader('Thread', ` #${ch.isIm ? 'tsai' : ch.name}`, 'Close thread', () => {
      ui.thread = undefined;
      saveLocation();
      render();
    }),
    h(
      'div',
      { class: 'thread-messages' },
      messageList([parent], messageHost(ch.messages, true)),
      h('div', { class: 'thread-count' }, `${counted} ${counted === 1 ? 'reply' : 'replies'}`),
      messageList(replies, messageHost(ch.messages, true)),
    ),
    h('div', { class: 'thread-composer' }, input),
  );
  if (focused) input.focus();
}

function renderModal(): void {
  const views = ui.snap?.views ?? [];
  modal.render(views.at(-1), {
    viewer: ui.viewer,
    timeZone: viewerTz(),
    ctx,
    users: ui.snap?.users ?? [],
    channels: ui.snap?.channels ?? [],
    depth: views.length,
    submit: async (view, values) => {
      const d = await deliver('Submit', control('submit', { user: ui.viewer, viewId: view.id, values }));
      return d?.errors;
    },
    close: (view) => {
      control('close-view', { user: ui.viewer, viewId: view.id }).catch((err: unknown) => toast(String(err)));
    },
    suggest: (view, blockId, actionId, query) => suggest({ viewId: view.id }, blockId, actionId, query),
    action: async (view, values, blockId, actionId, value) => {
      // Slack sends the whole view state with an action: store what was typed first.
      await Promise.all(
        Object.entries(values).flatMap(([b, byAction]) =>
          Object.entries(byAction)
            .filter(([a]) => !(b === blockId && a === actionId))
            .map(([a, v]) =>
              control('type', { user: ui.viewer, viewId: view.id, blockId: b, actionId: a, value: v }),
            ),
        ),
      ).catch(() => {});
      await deliver(
        'Action',
        control('view-action', { user: ui.viewer, viewId: view.id, actionId, blockId, value }),
      );
    },
  });
}

// ---- composer and user switching -----------------------------------------------------------------

async function send(): Promise<void> {
  const input = $<HTMLTextAreaElement>('composer-input');
  const raw = input.value;
  const text = raw.trim();
  const channel = channelId();
  if (!text || !channel) return;
  const slash = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
  input.value = '';
  autosize(input);
  if (!slash) {
    await control('message', { user: ui.viewer, channel, text }).catch((err: unknown) => toast(String(err)));
    return;
  }
  const command = `/${slash[1]}`;
  if (command !== ui.cfg.command) {
    toast(`${command} is not a valid command. In this sandbox only ${ui.cfg.command} is installed.`);
    input.value = raw;
    return;
  }
  ui.pendingCommand = true;
  $('composer').classList.add('busy');
  try {
    await deliver(command, control('command', { user: ui.viewer, channel, text: slash[2] ?? '', command }));
  } finally {
    ui.pendingCommand = false;
    $('composer').classList.remove('busy');
  }
}

function switchUser(id: string): void {
  ui.viewer = id;
  assistant.viewerChanged();
  ui.thread = undefined;
  lastMainKey = '';
  lastThreadKey = '';
  saveLocation();
  void refresh().then(() => {
    if (ui.channel === APP) openAppTab(ui.appTab);
  });
}

// ---- refresh loop --------------------------------------------------------------------------------

let inFlight = false;
let again = false;

async function refresh(): Promise<void> {
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = true;
  try {
    do {
      again = false;
      const viewer = ui.viewer;
      const snap = await snapshot(viewer);
      if (viewer !== ui.viewer) again = true;
      else {
        ui.snap = snap;
        // Another workspace's person does not see this one's channels: they land in their own.
        if (ui.channel !== APP && !snap.channels.some((c) => c.id === ui.channel)) {
          const first = snap.channels.find((c) => !c.isIm);
          if (first) ui.channel = first.id;
        }
        render();
      }
    } while (again);
  } catch (err) {
    toast(`Could not load the workspace: ${String(err)}`);
  } finally {
    inFlight = false;
  }
}

function render(): void {
  if (!ui.snap) return;
  document.body.dataset.viewer = ui.viewer;
  renderSidebar();
  renderMain();
  renderThread();
  // Wherever the viewer went (a click, the address bar), the open pane's app is told.
  assistant.viewingChanged();
  assistant.render();
  renderModal();
}

async function boot(): Promise<void> {
  const cfg = await config();
  const q = new URLSearchParams(location.hash.slice(1));
  const known = (id: string | null) => (id && cfg.users.some((u) => u.id === id) ? id : undefined);
  ui = {
    cfg,
    viewer: known(q.get('user')) ?? cfg.defaultUser,
    channel: q.get('channel') ?? cfg.defaultChannel,
    thread: q.get('thread') ?? undefined,
    appTab: 'messages',
    seen: new Map(),
    pendingCommand: false,
  };
  const input = $<HTMLTextAreaElement>('composer-input');
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  });
  input.addEventListener('input', () => {
    autosize(input);
    const v = input.value;
    $('composer-hint').classList.toggle('hidden', !(v.startsWith('/') && !v.includes(' ')));
  });
  $('composer-send').addEventListener('click', () => void send());
  setupComposerExtras(
    cfg,
    (s) => void deliver(s.name, control('shortcut', { user: ui.viewer, callbackId: s.callbackId })),
  );
  window.addEventListener('hashchange', () => {
    const h = new URLSearchParams(location.hash.slice(1));
    const viewer = known(h.get('user')) ?? ui.viewer;
    ui.channel = h.get('channel') ?? ui.channel;
    ui.thread = h.get('thread') ?? undefined;
    if (viewer !== ui.viewer) switchUser(viewer);
    else render();
  });
  onChange(
    () => void refresh(),
    (connected) => document.body.classList.toggle('offline', !connected),
  );
  setInterval(renderSidebar, 30_000); // local clocks in the switcher
  await refresh();
  if (ui.channel === APP) openAppTab();
  input.focus();
}

boot().catch((err: unknown) => {
  document.body.append(h('div', { class: 'fatal' }, `The sandbox could not start: ${String(err)}`));
});
