import type { SandboxConfig } from './api.js';
import { h, replaceChildren } from './dom.js';

type Shortcut = SandboxConfig['shortcuts'][number];

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** The slash command's hint (as Slack shows it while typing `/`) and the ⚡ menu of global shortcuts. */
export function setupComposerExtras(cfg: SandboxConfig, run: (s: Shortcut) => void): void {
  replaceChildren(
    $('composer-hint'),
    h('b', null, cfg.command),
    h('span', { class: 'hint-usage' }, cfg.usageHint ?? ''),
    h('span', { class: 'hint-app' }, cfg.description ?? 'tsai'),
  );
  if (cfg.shortcuts.length === 0) return;
  const menu = $('shortcut-menu');
  const button = $('composer-shortcuts');
  button.classList.remove('hidden');
  button.addEventListener('click', () => {
    menu.classList.toggle('hidden');
    $('composer-hint').classList.add('hidden');
  });
  replaceChildren(
    menu,
    h('div', { class: 'menu-title' }, 'Shortcuts for tsai'),
    cfg.shortcuts.map((s) =>
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          class: 'menu-item',
          'data-shortcut': s.callbackId,
          onclick: () => {
            menu.classList.add('hidden');
            run(s);
          },
        },
        h('span', { class: 'menu-name' }, s.name),
        s.description ? h('span', { class: 'menu-desc' }, s.description) : null,
      ),
    ),
  );
}

/** The composer grows with its text, up to a limit, as Slack's does. */
export function autosize(t: HTMLTextAreaElement): void {
  t.style.height = 'auto';
  t.style.height = `${Math.min(t.scrollHeight, 200)}px`;
}
