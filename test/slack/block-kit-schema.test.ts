import { describe, expect, it } from 'vitest';
import { shorten, truncate } from '../../src/slack/views/mrkdwn.js';
import { messageProblems, optionsProblems, viewProblems } from '../support/block-kit-schema/index.js';
import { hugeMessages } from '../support/fixtures/huge-messages.js';

/**
 * The checker test/slack/block-kit-payloads.test.ts holds every payload to: it refuses what Slack refuses
 * (each case one documented limit or rule just broken), and passes what is within them.
 */

const text = (t: string) => ({ type: 'plain_text', text: t });
const md = (t: string) => ({ type: 'mrkdwn', text: t });
const modal = (o: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: text('Learn'),
  submit: text('Start'),
  blocks: [{ type: 'section', text: md('hi') }],
  ...o,
});
const option = (value: string, label = 'x') => ({ text: text(label), value });

describe('the Block Kit checker', () => {
  it('passes payloads within the limits', () => {
    expect(
      messageProblems({ text: 'hi', blocks: [{ type: 'section', text: md('x'.repeat(3000)) }] }),
    ).toEqual([]);
    expect(viewProblems(modal())).toEqual([]);
    expect(viewProblems({ type: 'home', blocks: [{ type: 'divider' }] })).toEqual([]);
    expect(optionsProblems({ options: [option('1030000000000000001', 'Pump station A')] })).toEqual([]);
  });

  it.each([
    ['section text over 3000', { text: 'x', blocks: [{ type: 'section', text: md('x'.repeat(3001)) }] }],
    ['header over 150', { text: 'x', blocks: [{ type: 'header', text: text('h'.repeat(151)) }] }],
    ['a header in mrkdwn', { text: 'x', blocks: [{ type: 'header', text: md('h') }] }],
    [
      'button text over 75',
      {
        text: 'x',
        blocks: [
          { type: 'actions', elements: [{ type: 'button', text: text('b'.repeat(76)), action_id: 'a' }] },
        ],
      },
    ],
    [
      'action_id over 255',
      {
        text: 'x',
        blocks: [
          { type: 'actions', elements: [{ type: 'button', text: text('b'), action_id: 'a'.repeat(256) }] },
        ],
      },
    ],
    ['block_id over 255', { text: 'x', blocks: [{ type: 'divider', block_id: 'b'.repeat(256) }] }],
    [
      '51 blocks in a message',
      { text: 'x', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) },
    ],
    ['a field Slack does not know', { text: 'x', blocks: [{ type: 'divider', colour: 'red' }] }],
    ['an unknown block', { text: 'x', blocks: [{ type: 'marquee' }] }],
    ['an empty text', { text: 'x', blocks: [{ type: 'section', text: md('') }] }],
    ['no text at all', { blocks: [{ type: 'divider' }] }],
    ['message text over 40000', { text: 'x'.repeat(40_001) }],
    [
      'the same block_id twice',
      {
        text: 'x',
        blocks: [
          { type: 'divider', block_id: 'a' },
          { type: 'divider', block_id: 'a' },
        ],
      },
    ],
  ])('refuses a message with %s', (_what, body) => {
    expect(messageProblems(body as Record<string, unknown>)).not.toEqual([]);
  });

  it('holds an update to the 4000 characters chat.update takes', () => {
    expect(messageProblems({ text: 'x'.repeat(4001) }, 'posted')).toEqual([]);
    expect(messageProblems({ text: 'x'.repeat(4001) }, 'updated')).not.toEqual([]);
  });

  it.each([
    ['a title over 24', modal({ title: text('t'.repeat(25)) })],
    ['a submit over 24', modal({ submit: text('s'.repeat(25)) })],
    ['private_metadata over 3000', modal({ private_metadata: 'm'.repeat(3001) })],
    ['callback_id over 255', modal({ callback_id: 'c'.repeat(256) })],
    ['101 blocks', modal({ blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) })],
    [
      'an input and no submit',
      modal({
        submit: undefined,
        blocks: [{ type: 'input', label: text('l'), element: { type: 'plain_text_input' } }],
      }),
    ],
    [
      'a plain_text_input longer than 3000',
      modal({
        blocks: [
          { type: 'input', label: text('l'), element: { type: 'plain_text_input', max_length: 3001 } },
        ],
      }),
    ],
    [
      'a select with 101 options',
      modal({
        blocks: [
          {
            type: 'input',
            label: text('l'),
            element: {
              type: 'static_select',
              options: Array.from({ length: 101 }, (_, i) => option(`${i}`)),
            },
          },
        ],
      }),
    ],
    [
      'an option text over 75',
      modal({
        blocks: [
          {
            type: 'input',
            label: text('l'),
            element: { type: 'static_select', options: [option('v', 'o'.repeat(76))] },
          },
        ],
      }),
    ],
    [
      'a view over 250 kB',
      modal({ blocks: Array.from({ length: 100 }, () => ({ type: 'section', text: md('x'.repeat(2600)) })) }),
    ],
  ])('refuses a modal with %s', (_what, view) => {
    expect(viewProblems(JSON.parse(JSON.stringify(view)))).not.toEqual([]);
  });

  it.each([
    ['101 options', { options: Array.from({ length: 101 }, (_, i) => option(`${i}`)) }],
    ['an option value over 75', { options: [option('v'.repeat(76))] }],
    ['an option text over 75', { options: [option('v', 't'.repeat(76))] }],
    ['mrkdwn option text', { options: [{ text: md('x'), value: 'v' }] }],
    ['neither options nor groups', {}],
  ])('refuses an options answer with %s', (_what, body) => {
    expect(optionsProblems(body)).not.toEqual([]);
  });
});

describe('mrkdwn that Slack reads as written', () => {
  const message = (t: string) => ({ text: t, blocks: [{ type: 'section', text: md(t) }] });

  it.each([
    ['a placeholder in a code span', 'Try `/tsai live start assessment=<assessment ID>`.'],
    ['a bare ampersand', 'R&D pumps'],
    ['a closing bracket alone', 'score > 0.5'],
    ['a broadcast the bot never means', '<!channel> look'],
    ['a mention of something that is no ID', '<@alice>'],
  ])('refuses %s, in the text and in the blocks', (_what, t) => {
    const problems = messageProblems(message(t));
    expect(problems.some((p) => p.startsWith('text:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('blocks/0/text:'))).toBe(true);
  });

  it('passes escaped text and the control sequences the bot builds from Slack IDs', () => {
    for (const t of [
      'Try `/tsai live start assessment=&lt;assessment ID&gt;` &amp; more',
      '<@U0ALICE> asked in <#C0OPS> and <#C0OPS|ops>; ask <!subteam^S0LEADS>',
      'due <!date^1795900000^{date_short_pretty} {time}|2026-11-22 10:42 UTC>',
      'see <https://example.com/a?b=1&c=2|the request &amp; its reason>',
    ])
      expect(messageProblems(message(t)), t).toEqual([]);
  });

  it('checks every mrkdwn text of a view, and leaves plain text alone', () => {
    const view = modal({
      blocks: [
        { type: 'section', text: text('plain <text> & more') },
        { type: 'context', elements: [md('a <placeholder>')] },
      ],
    });
    expect(viewProblems(view)).toEqual([
      expect.stringMatching(/^view\/blocks\/1\/elements\/0: an unescaped "<"/),
      expect.stringMatching(/^view\/blocks\/1\/elements\/0: an unescaped ">"/),
    ]);
  });
});

describe('long text is shortened at a word boundary, visibly', () => {
  const words = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');

  it('ends on a whole word, within the room', () => {
    for (const max of [75, 150, 1000, 3000]) {
      const s = shorten(words, max);
      expect(s.length).toBeLessThanOrEqual(max);
      expect(s.endsWith('…')).toBe(true);
      expect(words.split(' ')).toContain(s.slice(0, -1).split(' ').at(-1));
    }
    const t = truncate(words, 3000);
    expect(t.endsWith(' (truncated)')).toBe(true);
    expect(words.split(' ')).toContain(t.replace('… (truncated)', '').split(' ').at(-1));
  });

  it('keeps text that fits as it is, and cuts inside only a single word longer than all the room', () => {
    expect(shorten('short text', 10)).toBe('short text');
    const token = 'x'.repeat(500);
    expect(shorten(`a ${token}`, 100)).toBe('a…');
    expect(shorten(token, 100)).toBe(`${'x'.repeat(99)}…`);
  });

  it('in every message a huge input can produce', () => {
    const huge = `${words} <&> ${words}`;
    const bodies = hugeMessages(huge);
    for (const body of bodies) {
      expect(messageProblems(body as unknown as Record<string, unknown>)).toEqual([]);
      for (const cut of JSON.stringify(body).match(/[^\s"]*… \(truncated\)/g) ?? [])
        expect(cut === '… (truncated)' || /^word\d+… \(truncated\)$/.test(cut), cut).toBe(true);
    }
  });
});
