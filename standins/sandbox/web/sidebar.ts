import type { LocalUser } from '../../localslack/types.js';
import type { ServiceIdentity, WorkspaceService } from './api.js';
import { type Child, h } from './dom.js';
import { avatar } from './messages.js';
import { clock, zoneAbbreviation } from './zones.js';

/** The left column: who you act as (with their zone and local time), channels, the app, the service log. */
export interface SidebarModel {
  people: LocalUser[];
  viewer: string;
  /** The selected channel ID, or the app's ID. */
  current: string;
  channels: { id: string; name: string; isPrivate?: boolean; unread: number }[];
  app: { id: string; unread: number };
  botUserId: string;
  /** Absent when the bot does not use the embedded emulator. */
  service?: { open: boolean };
  /** Absent when the app offers no Workflow Builder steps. */
  workflows?: { open: boolean };
  /** Absent when the app has no assistant pane (its manifest declares no `assistant_view`). */
  assistant?: { open: boolean };
  /** The viewer's own emulator token, when they have one. */
  identity?: ServiceIdentity;
  /** The viewer's workspace: its name, whether the app is installed there, how to add it, its own service. */
  workspace: { name: string; installed: boolean; installUrl?: string; service?: WorkspaceService };
  command: string;
  onUser(id: string): void;
  onChannel(id: string): void;
  onService(): void;
  onWorkflows(): void;
  onAssistant(): void;
  onCopy(token: string): void;
}

export function sidebar(m: SidebarModel): Child[] {
  const now = Date.now();
  const navItem = (id: string, icon: Child, label: string, unread: number) =>
    h(
      'button',
      {
        type: 'button',
        class: ['nav-item', id === m.current && 'active', unread > 0 && 'unread'],
        'data-channel': id,
        onclick: () => m.onChannel(id),
      },
      icon,
      h('span', { class: 'nav-label' }, label),
      unread > 0 ? h('span', { class: 'badge' }, String(unread)) : null,
    );
  return [
    h(
      'div',
      { class: 'workspace' },
      h('span', { class: 'workspace-name', 'data-role': 'workspace-name' }, m.workspace.name),
      h('span', { class: 'workspace-sub' }, 'tsai sandbox · local Slack · no account needed'),
    ),
    workspaceBox(m.workspace, m.command, m.onCopy),
    h(
      'section',
      { class: 'switcher', 'aria-label': 'Act as' },
      h('div', { class: 'side-title' }, 'Act as'),
      m.people.map((u) =>
        h(
          'button',
          {
            type: 'button',
            class: ['person', u.id === m.viewer && 'active'],
            'data-user': u.id,
            'aria-pressed': String(u.id === m.viewer),
            onclick: () => m.onUser(u.id),
          },
          avatar(u.id, u.name, false, 'small'),
          h(
            'span',
            { class: 'person-text' },
            h('span', { class: 'person-name' }, u.realName ?? u.name),
            h('span', { class: 'person-tz' }, `${u.tz} · ${clock(now, u.tz)} ${zoneAbbreviation(u.tz, now)}`),
          ),
        ),
      ),
    ),
    m.identity ? identityBox(m.identity, m.command, m.onCopy) : null,
    h(
      'nav',
      { class: 'channels', 'aria-label': 'Channels' },
      h('div', { class: 'side-title' }, 'Channels'),
      m.channels.map((c) =>
        navItem(c.id, h('span', { class: 'hash' }, c.isPrivate ? '🔒' : '#'), c.name, c.unread),
      ),
      h('div', { class: 'side-title' }, 'Apps'),
      navItem(m.app.id, avatar(m.botUserId, 'tsai', true, 'tiny'), 'tsai', m.app.unread),
    ),
    h(
      'div',
      { class: 'side-foot' },
      m.service ? footToggle('service-toggle', '⇄', 'Service requests', m.service.open, m.onService) : null,
      m.assistant ? footToggle('assistant-toggle', '✨', 'Assistant', m.assistant.open, m.onAssistant) : null,
      m.workflows ? footToggle('workflows-toggle', '⛓', 'Workflows', m.workflows.open, m.onWorkflows) : null,
    ),
  ];
}

/** A button at the foot of the sidebar that opens or closes a side pane. */
function footToggle(role: string, icon: string, label: string, open: boolean, onClick: () => void): Child {
  return h(
    'button',
    { type: 'button', class: ['nav-item', open && 'active'], 'data-role': role, onclick: () => onClick() },
    h('span', { class: 'hash' }, icon),
    h('span', { class: 'nav-label' }, label),
  );
}

/** "an Owner", "a Manager", "a User": the article goes by the sound, not the letter. */
const article = (role: string) => (role === 'Owner' ? 'an' : 'a');

/** How the viewer acts as themselves in the service: their role there, and the token to connect with. */
function identityBox(id: ServiceIdentity, command: string, onCopy: (token: string) => void): Child {
  return h(
    'section',
    { class: 'identity', 'aria-label': 'Your service token', 'data-role': 'service-identity' },
    h('div', { class: 'side-title' }, 'Act as yourself in the service'),
    h(
      'p',
      { class: 'identity-text' },
      `${id.name} is ${article(id.role)} ${id.role} in the emulator. Type `,
      h('code', { class: 'identity-command' }, `${command} connect`),
      ' and paste this token:',
    ),
    h(
      'div',
      { class: 'identity-token' },
      h('code', { class: 'token', 'data-role': 'service-token' }, id.token),
      h(
        'button',
        { type: 'button', class: 'copy', 'data-role': 'copy-token', onclick: () => onCopy(id.token) },
        'Copy',
      ),
    ),
  );
}

/**
 * The viewer's workspace and the app: where it is not installed, the way to add it ("Add to Slack", in a
 * new tab, as a browser would); where it is, and the workspace has a service account of its own, what its
 * admins paste into the form `/tsai setup` opens.
 */
function workspaceBox(w: SidebarModel['workspace'], command: string, onCopy: (token: string) => void): Child {
  if (!w.installed)
    return h(
      'section',
      { class: 'identity', 'aria-label': 'Install the app', 'data-role': 'not-installed' },
      h('div', { class: 'side-title' }, 'tsai is not installed here'),
      h('p', { class: 'identity-text' }, `Nobody in ${w.name} can use it until someone adds it.`),
      w.installUrl
        ? h(
            'a',
            {
              class: 'copy',
              href: w.installUrl,
              target: '_blank',
              rel: 'noopener',
              'data-role': 'add-to-slack',
            },
            'Add to Slack',
          )
        : null,
    );
  if (!w.service) return null;
  return h(
    'section',
    { class: 'identity', 'aria-label': "This workspace's service account", 'data-role': 'workspace-service' },
    h('div', { class: 'side-title' }, `${w.name}'s own service account`),
    h(
      'p',
      { class: 'identity-text' },
      'Its admins type ',
      h('code', { class: 'identity-command' }, `${command} setup`),
      ' and give: URL ',
      h('code', { 'data-role': 'workspace-service-url' }, w.service.url),
      ', account ',
      h('code', { 'data-role': 'workspace-service-account' }, w.service.accountId),
      ', and this token:',
    ),
    h(
      'div',
      { class: 'identity-token' },
      h('code', { class: 'token', 'data-role': 'workspace-service-token' }, w.service.token),
      h('button', { type: 'button', class: 'copy', onclick: () => onCopy(w.service!.token) }, 'Copy'),
    ),
  );
}
