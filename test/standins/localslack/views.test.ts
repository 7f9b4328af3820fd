import { describe, expect, it } from 'vitest';
import { buildStateValues } from '../../../standins/localslack/index.js';

const pt = (text: string) => ({ type: 'plain_text', text });
const opt = (value: string) => ({ text: pt(value.toUpperCase()), value });
const input = (block_id: string, element: Record<string, unknown>) => ({
  type: 'input',
  block_id,
  label: pt(block_id),
  element: { action_id: 'a', ...element },
});

const blocks = [
  input('text', { type: 'plain_text_input', initial_value: 'init' }),
  input('static', { type: 'static_select', options: [opt('x'), opt('y')] }),
  input('grouped', { type: 'static_select', option_groups: [{ label: pt('g'), options: [opt('g1')] }] }),
  input('radio', { type: 'radio_buttons', options: [opt('r1'), opt('r2')], initial_option: opt('r1') }),
  input('checks', { type: 'checkboxes', options: [opt('c1'), opt('c2'), opt('c3')] }),
  input('date', { type: 'datepicker' }),
  input('time', { type: 'timepicker', timezone: 'Asia/Kolkata' }),
  input('datetime', { type: 'datetimepicker' }),
  input('external', { type: 'external_select', min_query_length: 1 }),
  input('user', { type: 'users_select' }),
  input('conversation', { type: 'conversations_select' }),
  {
    type: 'section',
    block_id: 'sec',
    text: pt('s'),
    accessory: { type: 'button', action_id: 'go', text: pt('Go') },
  },
  {
    type: 'actions',
    block_id: 'acts',
    elements: [{ type: 'static_select', action_id: 'sel', options: [opt('p')], initial_option: opt('p') }],
  },
];

describe('buildStateValues', () => {
  it("produces Slack's state.values shape for every element type from typed values", () => {
    const values = buildStateValues(blocks, {
      static: { a: 'y' },
      grouped: { a: 'g1' },
      checks: { a: ['c1', 'c3'] },
      date: { a: '2026-11-20' },
      time: { a: '09:30' },
      datetime: { a: 1763630400 },
      external: { a: 'asm-42' },
      user: { a: 'U0BOB' },
      conversation: { a: 'C0OPS' },
    });
    expect(values).toEqual({
      text: { a: { type: 'plain_text_input', value: 'init' } },
      static: { a: { type: 'static_select', selected_option: { text: pt('Y'), value: 'y' } } },
      grouped: { a: { type: 'static_select', selected_option: { text: pt('G1'), value: 'g1' } } },
      radio: { a: { type: 'radio_buttons', selected_option: { text: pt('R1'), value: 'r1' } } },
      checks: { a: { type: 'checkboxes', selected_options: [opt('c1'), opt('c3')] } },
      date: { a: { type: 'datepicker', selected_date: '2026-11-20' } },
      time: { a: { type: 'timepicker', selected_time: '09:30', timezone: 'Asia/Kolkata' } },
      datetime: { a: { type: 'datetimepicker', selected_date_time: 1763630400 } },
      external: { a: { type: 'external_select', selected_option: { text: pt('asm-42'), value: 'asm-42' } } },
      user: { a: { type: 'users_select', selected_user: 'U0BOB' } },
      conversation: { a: { type: 'conversations_select', selected_conversation: 'C0OPS' } },
      acts: { sel: { type: 'static_select', selected_option: { text: pt('P'), value: 'p' } } },
    });
  });

  it('reports untouched inputs as Slack does (null / empty list) and an emptied text input as null', () => {
    const values = buildStateValues(blocks, { text: { a: '' } });
    expect(values.text?.a).toEqual({ type: 'plain_text_input', value: null });
    expect(values.static?.a).toEqual({ type: 'static_select', selected_option: null });
    expect(values.checks?.a).toEqual({ type: 'checkboxes', selected_options: [] });
    expect(values.date?.a).toEqual({ type: 'datepicker', selected_date: null });
  });

  it('refuses an option value the element does not offer, naming the offered ones', () => {
    expect(() => buildStateValues(blocks, { static: { a: 'z' } })).toThrow(/"z" is not one of .*x, y/);
  });
});
