/** Block Kit the page must draw: every block and element the bot uses, plus hostile text. */
const pt = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
const md = (text: string) => ({ type: 'mrkdwn' as const, text });
const opt = (text: string, value: string) => ({ text: pt(text), value });

export const INJECTION = '&lt;!channel&gt; *bold* &lt;http://evil|click&gt; &amp; `code`';

export const galleryBlocks = [
  { type: 'header', block_id: 'g_header', text: pt('Flow created :white_check_mark:') },
  {
    type: 'section',
    block_id: 'g_section',
    text: md(
      `<@U0ALICE> ran *learn* with _italic_ ~gone~ and <https://example.com/docs|the docs>.\nName: ${INJECTION}`,
    ),
    accessory: {
      type: 'button',
      action_id: 'g_open',
      text: pt('Open'),
      value: 'open',
    },
  },
  {
    type: 'section',
    block_id: 'g_fields',
    fields: [
      md('*Flow ID*\n`1400000000000000001`'),
      md('*Status*\nCREATED'),
      md('*Workspace*\nPump station A'),
    ],
  },
  { type: 'divider' },
  {
    type: 'actions',
    block_id: 'g_actions',
    elements: [
      { type: 'button', action_id: 'g_approve', style: 'primary', text: pt('Approve'), value: 'req-1' },
      { type: 'button', action_id: 'g_reject', style: 'danger', text: pt('Reject'), value: 'req-1' },
      {
        type: 'static_select',
        action_id: 'g_select',
        placeholder: pt('Pick a model'),
        options: [opt('M[0] temperature', 'm0'), opt('M[1] temperature', 'm1')],
      },
      { type: 'datepicker', action_id: 'g_date', initial_date: '2026-11-20' },
    ],
  },
  {
    type: 'context',
    block_id: 'g_context',
    elements: [md('Run by <@U0ALICE>: `/tsai flow 1400000000000000001`')],
  },
];
