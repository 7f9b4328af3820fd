import { type Child, h, replaceChildren } from './dom.js';
import { type MrkdwnContext, plainText, textObject } from './mrkdwn.js';
import { epochSecondsToWall, wallToEpochSeconds } from './zones.js';

/**
 * Block Kit to DOM, for messages, modals and App Home. Every element the bot can send is drawn; what
 * the user does is reported through the host (typed values for modals, block_actions when Slack would
 * send one). Values use the stand-in's shapes: text a string, selects/radios an option value,
 * checkboxes an array of values, datepicker `YYYY-MM-DD`, timepicker `HH:mm`, datetimepicker seconds.
 */
type Json = Record<string, unknown>;

export interface BlockHost {
  ctx: MrkdwnContext;
  users: { id: string; name: string; isBot?: boolean }[];
  channels: { id: string; name: string; isIm?: boolean }[];
  /** The viewer's Slack zone, for datetimepickers. */
  timeZone: string;
  /** What the user typed so far in this view, by block_id then action_id. */
  values?: Record<string, Record<string, unknown>>;
  /** Errors by block_id (`response_action: errors` or the client's own checks). */
  errors?: Record<string, string>;
  /** A stateful element changed (no request to the app unless `dispatch` follows). */
  onType?(blockId: string, actionId: string, value: unknown): void;
  /** Slack would send block_actions now. */
  onAction(blockId: string, actionId: string, value: unknown, source: HTMLElement): void;
  /** Lets the host read an element's current value at submit time. */
  register?(blockId: string, actionId: string, read: () => unknown): void;
  /**
   * Asks the app for a type-ahead select's options (Slack's block_suggestion): the options, or why
   * there are none. Absent: the select cannot search.
   */
  suggest?(blockId: string, actionId: string, query: string): Promise<Suggestions>;
}

export interface Suggestions {
  options: Option[];
  error?: string;
}

export interface Option {
  text?: unknown;
  value?: string;
  description?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const arr = <T = Json>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function options(el: Json): { group?: string; options: Option[] }[] {
  if (Array.isArray(el.option_groups))
    return arr<Json>(el.option_groups).map((g) => ({
      group: plainText(g.label),
      options: arr<Option>(g.options),
    }));
  return [{ options: arr<Option>(el.options) }];
}

function typed(host: BlockHost, blockId: string, actionId: string): unknown {
  return host.values?.[blockId]?.[actionId];
}

const optionValue = (o: unknown): string | undefined =>
  o && typeof o === 'object' ? str((o as Option).value) : typeof o === 'string' ? o : undefined;

interface ElementSite {
  blockId: string;
  /** true: Slack sends block_actions on change (actions blocks, accessories, dispatching inputs). */
  dispatch: boolean;
  /** For plain_text_input in a dispatching input block. */
  triggers?: string[];
  inInput: boolean;
  invalid: boolean;
}

function elementNode(el: Json, site: ElementSite, host: BlockHost): HTMLElement {
  const type = String(el.type);
  const actionId = String(el.action_id ?? '');
  const changed = (value: unknown, source: HTMLElement) => {
    host.onType?.(site.blockId, actionId, value);
    if (site.dispatch) host.onAction(site.blockId, actionId, value, source);
  };

  switch (type) {
    case 'button':
      return buttonNode(el, site, host);
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
      return textInputNode(el, site, host);
    case 'external_select':
    case 'multi_external_select':
      return typeaheadNode(el, site, host, changed);
    case 'static_select':
    case 'users_select':
    case 'conversations_select':
    case 'channels_select':
    case 'multi_static_select':
    case 'multi_users_select':
    case 'multi_conversations_select':
    case 'multi_channels_select':
      return selectNode(el, site, host, changed);
    case 'overflow':
      return overflowNode(el, site, host);
    case 'radio_buttons':
    case 'checkboxes':
      return choicesNode(el, site, host, changed);
    case 'datepicker':
    case 'timepicker':
    case 'datetimepicker':
      return pickerNode(el, site, host, changed);
    case 'image':
      return imageNode(el, 'accessory-image');
    default:
      return h('span', { class: 'unsupported' }, `[${type} element]`);
  }
}

type Changed = (value: unknown, source: HTMLElement) => void;

/** A button; one with `confirm` asks first. */
function buttonNode(el: Json, site: ElementSite, host: BlockHost): HTMLElement {
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const style = str(el.style);
  const b = h(
    'button',
    {
      type: 'button',
      class: ['btn', style === 'primary' && 'primary', style === 'danger' && 'danger'],
      'data-action': key,
      onclick: () => {
        const go = () => host.onAction(site.blockId, actionId, undefined, b);
        if (el.confirm && typeof el.confirm === 'object') confirmDialog(el.confirm as Json, host, go);
        else go();
      },
    },
    textObject(el.text, host.ctx),
  );
  const url = str(el.url);
  if (url) b.title = url;
  return b;
}

/** A text field; in a dispatching input it acts on Enter or as the user types, as its triggers say. */
function textInputNode(el: Json, site: ElementSite, host: BlockHost): HTMLElement {
  const type = String(el.type);
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const t = typed(host, site.blockId, actionId);
  const placeholder = plainText(el.placeholder);
  const initial = str(t) ?? str(el.initial_value) ?? '';
  const multiline = el.multiline === true;
  const input = multiline
    ? h('textarea', { rows: 3, class: 'field', placeholder, 'data-key': key })
    : h('input', {
        type: type === 'number_input' ? 'number' : type === 'email_text_input' ? 'email' : 'text',
        class: 'field',
        placeholder,
        'data-key': key,
      });
  input.value = initial;
  if (site.invalid) input.classList.add('invalid');
  if (typeof el.max_length === 'number') input.maxLength = el.max_length;
  if (el.focus_on_load === true) input.autofocus = true;
  const triggers = site.triggers ?? ['on_enter_pressed'];
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    host.onType?.(site.blockId, actionId, input.value);
    if (site.dispatch && triggers.includes('on_character_entered')) {
      clearTimeout(timer);
      timer = setTimeout(() => host.onAction(site.blockId, actionId, input.value, input), 400);
    }
  });
  input.addEventListener('keydown', (e) => {
    const ev = e as KeyboardEvent;
    if (ev.key !== 'Enter' || ev.shiftKey || ev.isComposing) return;
    if (multiline && !site.dispatch) return;
    ev.preventDefault();
    if (site.dispatch && triggers.includes('on_enter_pressed'))
      host.onAction(site.blockId, actionId, input.value, input);
  });
  host.register?.(site.blockId, actionId, () => input.value);
  if (site.dispatch) input.dataset.dispatch = triggers.join(' ');
  return h('div', { class: 'text-input' }, input);
}

/** The ⋯ menu: picking an item acts at once and the menu shows ⋯ again. */
function overflowNode(el: Json, site: ElementSite, host: BlockHost): HTMLElement {
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const sel = h(
    'select',
    { class: 'overflow', title: 'More actions', 'data-action': key },
    h('option', { value: '' }, '⋯'),
    arr<Option>(el.options).map((o) => h('option', { value: o.value ?? '' }, plainText(o.text))),
  );
  sel.addEventListener('change', () => {
    const v = sel.value;
    sel.value = '';
    if (v) host.onAction(site.blockId, actionId, v, sel);
  });
  return sel;
}

/** Radio buttons or checkboxes, each option with its description. */
function choicesNode(el: Json, site: ElementSite, host: BlockHost, changed: Changed): HTMLElement {
  const type = String(el.type);
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const t = typed(host, site.blockId, actionId);
  const multi = type === 'checkboxes';
  const chosen = new Set<string>();
  const initial = t !== undefined ? t : multi ? el.initial_options : el.initial_option;
  for (const o of multi ? arr(initial) : [initial]) {
    const v = optionValue(o);
    if (v !== undefined) chosen.add(v);
  }
  const name = `${key}-${Math.random().toString(36).slice(2, 7)}`;
  const inputs: HTMLInputElement[] = [];
  const read = () => {
    const on = inputs.filter((i) => i.checked).map((i) => i.value);
    return multi ? on : on[0];
  };
  const box = h(
    'div',
    {
      class: ['choices', site.invalid && 'invalid'],
      'data-key': key,
      role: multi ? 'group' : 'radiogroup',
    },
    arr<Option>(el.options).map((o) => {
      const input = h('input', {
        type: multi ? 'checkbox' : 'radio',
        name,
        value: o.value ?? '',
        checked: chosen.has(o.value ?? ''),
      });
      inputs.push(input);
      input.addEventListener('change', () => changed(read(), input));
      return h(
        'label',
        { class: 'choice' },
        input,
        h(
          'span',
          null,
          h('span', { class: 'choice-text' }, textObject(o.text, host.ctx)),
          o.description ? h('span', { class: 'choice-desc' }, textObject(o.description, host.ctx)) : null,
        ),
      );
    }),
  );
  host.register?.(site.blockId, actionId, read);
  return box;
}

/** A date, time or date-and-time picker; a date-and-time is shown and read in the host's zone. */
function pickerNode(el: Json, site: ElementSite, host: BlockHost, changed: Changed): HTMLElement {
  const type = String(el.type);
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const t = typed(host, site.blockId, actionId);
  const placeholder = plainText(el.placeholder);
  const input = h('input', {
    type: type === 'datepicker' ? 'date' : type === 'timepicker' ? 'time' : 'datetime-local',
    class: ['field', 'picker', site.invalid && 'invalid'],
    'data-key': key,
    'aria-label': placeholder || type,
  });
  const initial =
    t !== undefined
      ? t
      : el[
          type === 'datepicker'
            ? 'initial_date'
            : type === 'timepicker'
              ? 'initial_time'
              : 'initial_date_time'
        ];
  if (type === 'datetimepicker' && initial !== undefined && initial !== null)
    input.value = epochSecondsToWall(Number(initial), host.timeZone);
  else if (typeof initial === 'string') input.value = initial;
  const read = () => {
    if (!input.value) return null;
    return type === 'datetimepicker' ? wallToEpochSeconds(input.value, host.timeZone) : input.value;
  };
  input.addEventListener('change', () => changed(read(), input));
  host.register?.(site.blockId, actionId, read);
  const zone = type === 'datetimepicker' ? h('span', { class: 'picker-zone' }, host.timeZone) : null;
  const tz =
    type === 'timepicker' && str(el.timezone) ? h('span', { class: 'picker-zone' }, str(el.timezone)) : null;
  return h('span', { class: 'picker-wrap' }, input, zone, tz);
}

function selectNode(
  el: Json,
  site: ElementSite,
  host: BlockHost,
  changed: (value: unknown, source: HTMLElement) => void,
): HTMLElement {
  const type = String(el.type);
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const multi = type.startsWith('multi_');
  const t = typed(host, site.blockId, actionId);
  let groups: { group?: string; options: Option[] }[];
  const initialKey: Record<string, string> = {
    static_select: 'initial_option',
    external_select: 'initial_option',
    users_select: 'initial_user',
    conversations_select: 'initial_conversation',
    channels_select: 'initial_channel',
    multi_static_select: 'initial_options',
    multi_users_select: 'initial_users',
    multi_conversations_select: 'initial_conversations',
    multi_channels_select: 'initial_channels',
  };
  if (type.includes('users')) {
    groups = [
      {
        options: host.users
          .filter((u) => !u.isBot)
          .map((u) => ({ text: { text: `@${u.name}` }, value: u.id })),
      },
    ];
  } else if (type.includes('conversations') || type.includes('channels')) {
    groups = [
      {
        options: host.channels
          .filter((c) => !c.isIm)
          .map((c) => ({ text: { text: `#${c.name}` }, value: c.id })),
      },
    ];
  } else groups = options(el);
  const initial = t !== undefined ? t : el[initialKey[type] ?? 'initial_option'];
  const chosen = new Set((multi ? arr(initial) : [initial]).map(optionValue).filter((v) => v !== undefined));
  const sel = h('select', {
    class: ['field', 'select', site.invalid && 'invalid'],
    'data-key': key,
    multiple: multi ? true : undefined,
  });
  if (!multi) sel.append(h('option', { value: '' }, plainText(el.placeholder) || 'Select an item'));
  for (const g of groups) {
    const opts = g.options.map((o) =>
      h('option', { value: o.value ?? '', selected: chosen.has(o.value ?? '') }, plainText(o.text)),
    );
    if (g.group !== undefined) sel.append(h('optgroup', { label: g.group }, opts));
    else sel.append(...opts);
  }
  if (!multi && chosen.size === 0) sel.value = '';
  const read = () =>
    multi ? Array.from(sel.selectedOptions).map((o) => o.value) : sel.value === '' ? null : sel.value;
  sel.addEventListener('change', () => changed(read(), sel));
  host.register?.(site.blockId, actionId, read);
  return sel;
}

/** How long typing pauses before the app is asked, as Slack's client debounces its requests. */
const SUGGEST_DELAY_MS = 250;

/**
 * `external_select` / `multi_external_select`: a search field that asks the app for options as the user
 * types (from `min_query_length` characters, default 3), a list to pick from, and the picked options as
 * chips. Values are the app's options (text and value), which the stand-in checks were offered.
 */
function typeaheadNode(
  el: Json,
  site: ElementSite,
  host: BlockHost,
  changed: (value: unknown, source: HTMLElement) => void,
): HTMLElement {
  const actionId = String(el.action_id ?? '');
  const key = `${site.blockId}/${actionId}`;
  const multi = el.type === 'multi_external_select';
  const minQuery = typeof el.min_query_length === 'number' ? el.min_query_length : 3;
  const max = typeof el.max_selected_items === 'number' ? el.max_selected_items : Infinity;
  let chosen = initialPicks(el, host, site.blockId, actionId, multi);
  let offered: Option[] = [];
  let active = 0;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const { input, chips, menu, note, box } = typeaheadParts(el, site, key, multi);

  const value = () => (multi ? chosen : (chosen[0] ?? null));
  const drawChips = () =>
    replaceChildren(
      chips,
      chosen.map((o) =>
        chipNode(o, () => {
          chosen = chosen.filter((c) => c !== o);
          drawChips();
          changed(value(), box);
        }),
      ),
    );
  const closeMenu = () => {
    menu.classList.add('hidden');
    note.classList.add('hidden');
    input.setAttribute('aria-expanded', 'false');
  };
  const say = (text: string) => {
    menu.classList.add('hidden');
    note.classList.remove('hidden');
    replaceChildren(note, text);
  };
  const pick = (o: Option) => {
    if (multi) {
      if (chosen.some((c) => c.value === o.value)) return;
      if (chosen.length >= max) return say(`You can pick at most ${max}.`);
      chosen = [...chosen, o];
    } else chosen = [o];
    input.value = '';
    closeMenu();
    drawChips();
    changed(value(), box);
  };
  const drawMenu = () => {
    if (offered.length === 0) return say('No results');
    note.classList.add('hidden');
    menu.classList.remove('hidden');
    input.setAttribute('aria-expanded', 'true');
    replaceChildren(
      menu,
      offered.map((o, i) => optionItem(o, i === active, () => pick(o))),
    );
  };
  const ask = (query: string) => {
    clearTimeout(timer);
    if (!host.suggest) return say('This sandbox cannot search here.');
    if (query.length < minQuery) {
      const more = minQuery - query.length;
      return say(`Type ${more} more character${more === 1 ? '' : 's'} to search.`);
    }
    timer = setTimeout(() => {
      const seq = ++asked;
      say('Searching…');
      host.suggest!(site.blockId, actionId, query).then(
        (r) => {
          if (seq !== asked || document.activeElement !== input) return;
          offered = r.options;
          active = 0;
          if (r.error) say(r.error);
          else drawMenu();
        },
        (err: unknown) => {
          if (seq === asked) say(String(err instanceof Error ? err.message : err));
        },
      );
    }, SUGGEST_DELAY_MS);
  };
  input.addEventListener('input', () => ask(input.value));
  input.addEventListener('focus', () => {
    if (minQuery === 0 || input.value.length >= minQuery) ask(input.value);
  });
  input.addEventListener('blur', () => {
    clearTimeout(timer);
    asked++;
    closeMenu();
  });
  input.addEventListener('keydown', (e) => {
    const ev = e as KeyboardEvent;
    const open = !menu.classList.contains('hidden');
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      if (!open) return;
      ev.preventDefault();
      active = (active + (ev.key === 'ArrowDown' ? 1 : offered.length - 1)) % offered.length;
      drawMenu();
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      const o = open ? offered[active] : undefined;
      if (o) pick(o);
    } else if (ev.key === 'Escape' && open) {
      ev.stopPropagation();
      closeMenu();
    } else if (ev.key === 'Backspace' && input.value === '' && chosen.length > 0) {
      chosen = chosen.slice(0, -1);
      drawChips();
      changed(value(), box);
    }
  });
  drawChips();
  host.register?.(site.blockId, actionId, value);
  return box;
}

/** What the typeahead shows picked at first: what was typed there before a redraw, else the element's initial. */
function initialPicks(
  el: Json,
  host: BlockHost,
  blockId: string,
  actionId: string,
  multi: boolean,
): Option[] {
  const t = typed(host, blockId, actionId);
  const initial = t !== undefined ? t : multi ? el.initial_options : el.initial_option;
  return (multi ? arr<Option>(initial) : initial ? [initial as Option] : []).filter(
    (o) => o && typeof o === 'object' && typeof o.value === 'string',
  );
}

/** The typeahead's parts: the picked options as chips, the search field, the list and a note under it. */
function typeaheadParts(el: Json, site: ElementSite, key: string, multi: boolean) {
  const input = h('input', {
    type: 'text',
    class: ['field', 'typeahead-input', site.invalid && 'invalid'],
    placeholder: plainText(el.placeholder) || (multi ? 'Select options' : 'Select an option'),
    'data-key': key,
    autocomplete: 'off',
    role: 'combobox',
    'aria-expanded': 'false',
  });
  if (el.focus_on_load === true) input.autofocus = true;
  const chips = h('div', { class: 'chips' });
  const menu = h('ul', { class: 'typeahead-menu hidden', role: 'listbox' });
  const note = h('div', { class: 'typeahead-note hidden' });
  const box = h(
    'div',
    { class: ['typeahead', multi && 'multi'], 'data-typeahead': key },
    chips,
    input,
    menu,
    note,
  );
  return { input, chips, menu, note, box };
}

/** A picked option, with its × to remove it. */
function chipNode(o: Option, remove: () => void): HTMLElement {
  return h(
    'span',
    { class: 'chip', 'data-value': o.value ?? '' },
    h('span', { class: 'chip-text' }, plainText(o.text)),
    h('button', { type: 'button', class: 'chip-x', title: 'Remove', onclick: remove }, '×'),
  );
}

/** One offered option in the typeahead's list. */
function optionItem(o: Option, active: boolean, pick: () => void): HTMLElement {
  return h(
    'li',
    {
      role: 'option',
      class: ['typeahead-option', active && 'active'],
      'data-value': o.value ?? '',
      'aria-selected': String(active),
      // mousedown, not click: the field's blur must not close the list first.
      onmousedown: (e: Event) => {
        e.preventDefault();
        pick();
      },
    },
    h('span', null, plainText(o.text)),
    o.description ? h('span', { class: 'choice-desc' }, plainText(o.description)) : null,
  );
}

function imageNode(el: Json, cls: string): HTMLElement {
  const url = str(el.image_url) ?? '';
  const ok = /^https?:\/\//.test(url) || url.startsWith('data:image/');
  return ok
    ? h('img', { class: cls, src: url, alt: str(el.alt_text) ?? '' })
    : h('span', { class: 'unsupported' }, `[image: ${str(el.alt_text) ?? ''}]`);
}

function confirmDialog(c: Json, host: BlockHost, go: () => void): void {
  const close = () => overlay.remove();
  const overlay = h(
    'div',
    { class: 'modal-backdrop confirm' },
    h(
      'div',
      { class: 'modal small', role: 'dialog' },
      h('header', { class: 'modal-header' }, h('h2', null, plainText(c.title) || 'Are you sure?')),
      h('div', { class: 'modal-body' }, h('div', { class: 'mrkdwn' }, textObject(c.text, host.ctx))),
      h(
        'footer',
        { class: 'modal-footer' },
        h('button', { type: 'button', class: 'btn', onclick: close }, plainText(c.deny) || 'Cancel'),
        h(
          'button',
          {
            type: 'button',
            class: ['btn', c.style === 'danger' ? 'danger' : 'primary'],
            onclick: () => {
              close();
              go();
            },
          },
          plainText(c.confirm) || 'Yes',
        ),
      ),
    ),
  );
  document.body.append(overlay);
}

function blockNode(block: Json, host: BlockHost): Child {
  const type = String(block.type);
  const blockId = String(block.block_id ?? '');
  const error = host.errors?.[blockId];
  switch (type) {
    case 'section': {
      const body: Child[] = [];
      if (block.text) body.push(h('div', { class: 'mrkdwn' }, textObject(block.text, host.ctx)));
      const fields = arr(block.fields);
      if (fields.length)
        body.push(
          h(
            'div',
            { class: 'fields' },
            fields.map((f) => h('div', { class: 'field-cell mrkdwn' }, textObject(f, host.ctx))),
          ),
        );
      const acc = block.accessory as Json | undefined;
      return h(
        'div',
        { class: 'block section', 'data-block-id': blockId },
        h('div', { class: 'section-body' }, body),
        acc
          ? h(
              'div',
              { class: 'accessory' },
              elementNode(acc, { blockId, dispatch: true, inInput: false, invalid: false }, host),
            )
          : null,
      );
    }
    case 'header':
      return h('h3', { class: 'block header', 'data-block-id': blockId }, plainText(block.text));
    case 'divider':
      return h('hr', { class: 'block divider' });
    case 'context':
      return h(
        'div',
        { class: 'block context', 'data-block-id': blockId },
        arr(block.elements).map((e) =>
          e.type === 'image'
            ? imageNode(e, 'context-image')
            : h('span', { class: 'context-item mrkdwn' }, textObject(e, host.ctx)),
        ),
      );
    case 'actions':
      return h(
        'div',
        { class: 'block actions', 'data-block-id': blockId },
        arr(block.elements).map((e) =>
          elementNode(e, { blockId, dispatch: true, inInput: false, invalid: false }, host),
        ),
      );
    case 'input': {
      const el = (block.element ?? {}) as Json;
      const cfg = (el.dispatch_action_config ?? {}) as Json;
      const site: ElementSite = {
        blockId,
        dispatch: block.dispatch_action === true,
        triggers: Array.isArray(cfg.trigger_actions_on) ? (cfg.trigger_actions_on as string[]) : undefined,
        inInput: true,
        invalid: error !== undefined,
      };
      return h(
        'div',
        { class: ['block', 'input', error !== undefined && 'has-error'], 'data-block-id': blockId },
        h(
          'label',
          { class: 'input-label' },
          plainText(block.label),
          block.optional === true ? h('span', { class: 'optional' }, ' (optional)') : null,
        ),
        elementNode(el, site, host),
        error !== undefined ? h('div', { class: 'input-error', role: 'alert' }, error) : null,
        block.hint ? h('div', { class: 'hint' }, textObject(block.hint, host.ctx)) : null,
      );
    }
    case 'image':
      return h(
        'figure',
        { class: 'block image' },
        block.title ? h('figcaption', null, plainText(block.title)) : null,
        imageNode(block, 'block-image'),
      );
    case 'rich_text':
      return h('div', { class: 'block mrkdwn' }, richText(block));
    default:
      return h('div', { class: 'block unsupported' }, `[${type} block]`);
  }
}

function richText(node: unknown): Child[] {
  if (!node || typeof node !== 'object') return [];
  const n = node as Json;
  if (typeof n.text === 'string') return [n.text];
  if (n.type === 'user') return [`@${String(n.user_id)}`];
  if (n.type === 'link') return [String(n.text ?? n.url ?? '')];
  return arr(n.elements).flatMap((e) => richText(e));
}

export function renderBlocks(blocks: unknown, host: BlockHost): HTMLElement {
  return h(
    'div',
    { class: 'blocks' },
    arr(blocks).map((b) => blockNode(b, host)),
  );
}
