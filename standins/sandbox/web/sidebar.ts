import type { LocalUser } from '../../localslack/types.js';
import type { ServiceIdentity } from './api.js';
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
  /** The viewer's own emulator token, when they have one. */
  identity?: ServiceIdentity;
  command: string;
  onUser(id: string): void;
  onChannel(id: string): void;
  onService(): void;
  onWorkflows(): void;
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
      h('span', { class: 'workspace-name' }, 'tsai sandbox'),
      h('span', { class: 'workspace-sub' }, 'local Slack · no account needed'),
    ),
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
      m.service
        ? h(
            'button',
            {
              type: 'button',
              class: ['nav-item', m.service.open && 'active'],
              'data-role': 'service-toggle',
              onclick: () => m.onService(),
            },
            h('span', { class: 'hash' }, '⇄'),
            h('span', { class: 'nav-label' }, 'Service requests'),
          )
        : null,
      m.workflows
        ? h(
            'button',
            {
              type: 'button',
              class: ['nav-item', m.workflows.open && 'active'],
              'data-role': 'workflows-toggle',
              onclick: () => m.onWorkflows(),
            },
            h('span', { class: 'hash' }, '⛓'),
            h('span', { class: 'nav-label' }, 'Workflows'),
          )
        : null,
    ),
  ];
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
