/** A tiny element builder. Strings always become text nodes: user and bot content is never parsed as HTML. */
export type Child = Node | string | number | null | undefined | false | Child[];

type Handler = (ev: Event) => void;
export interface Attrs {
  class?: string | (string | false | undefined)[];
  [name: string]: unknown;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, ...c);
    else if (c instanceof Node) parent.appendChild(c);
    else parent.appendChild(document.createTextNode(String(c)));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : String(value);
    } else if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value as Handler);
    } else if (name === 'value' && 'value' in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (name === 'checked' || name === 'selected' || name === 'disabled') {
      (el as unknown as Record<string, boolean>)[name] = Boolean(value);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, ...children);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  clear(el);
  append(el, ...children);
}

/** A side pane's header: its title, a note beside it and a ✕ that closes it. */
export function paneHeader(title: string, sub: string, closeTitle: string, close: () => void): HTMLElement {
  return h(
    'header',
    { class: 'thread-header' },
    h('div', null, h('b', null, title), h('span', { class: 'pane-sub' }, sub)),
    h('button', { type: 'button', class: 'icon-btn', title: closeTitle, onclick: close }, '✕'),
  );
}
