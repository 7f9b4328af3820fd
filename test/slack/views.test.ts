import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { errorMessage, helpMessage, resultMessage } from '../../src/slack/views/messages.js';
import { code, escapeMrkdwn, LIMITS, limitBlocks, section, truncate } from '../../src/slack/views/mrkdwn.js';
import { hugeMessages } from '../support/fixtures/huge-messages.js';

const EVIL = '<!channel> *bold* <http://evil|click> & `tick`';

function allText(body: { text: string; blocks: unknown[] }): string {
  return JSON.stringify(body);
}

/** Every mrkdwn text in a body, for checking escapes. */
function texts(body: { text: string; blocks: unknown[] }): string[] {
  const out = [body.text];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(body.blocks);
  return out;
}

describe('mrkdwn helpers', () => {
  it('escapes control characters only', () => {
    expect(escapeMrkdwn('a & <b> *c*')).toBe('a &amp; &lt;b&gt; *c*');
  });
  it('puts text in a code span that backticks cannot break', () => {
    expect(code('x`y <z>')).toBe('`xˋy &lt;z&gt;`');
  });
  it('truncates visibly without splitting an entity', () => {
    const t = truncate('a'.repeat(2990) + '&amp;'.repeat(10), 3000);
    expect(t.length).toBeLessThanOrEqual(3000);
    expect(t.endsWith('… (truncated)')).toBe(true);
    expect(t).not.toMatch(/&[a-z]{0,4}… \(truncated\)$/);
  });
  it('keeps a section within 3000 characters', () => {
    const block = section('x'.repeat(10_000)) as { text: { text: string } };
    expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.text);
  });
  it('keeps messages within 50 blocks and says so', () => {
    const many = Array.from({ length: 80 }, (_, i) => section(`b${i}`));
    const limited = limitBlocks(many);
    expect(limited).toHaveLength(50);
    expect(JSON.stringify(limited.at(-1))).toContain('31 more parts not shown');
  });
});

describe('messages', () => {
  it('renders user and service text literally (no mentions, links or formatting)', () => {
    const body = resultMessage(
      {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'created a workspace',
        facts: [
          { label: 'Name', value: EVIL, code: true },
          { label: 'Description', value: EVIL },
        ],
      },
      { userId: 'U0ALICE', commandText: `/tsai workspace create ${EVIL}` },
    );
    for (const t of texts(body)) {
      expect(t).not.toContain('<!channel>');
      expect(t).not.toContain('<http://evil');
    }
    expect(allText(body)).toContain('&lt;!channel&gt; *bold* &lt;http://evil|click&gt;');
    expect(body.text).toBe('<@U0ALICE> created a workspace');
  });

  it('shows the flow ID and status first, and who ran it', () => {
    const body = resultMessage(
      {
        ok: true,
        kind: 'service',
        visibility: 'channel',
        title: 'created an EVAL flow',
        facts: [],
        flow: { id: '1400000000000000001', status: 'CREATED' },
      },
      { userId: 'U0ALICE', commandText: '/tsai eval …' },
    );
    const s = allText(body);
    expect(s).toContain('*Flow ID*\\n`1400000000000000001`');
    expect(s).toContain('*Status*\\nCREATED');
    expect(s).toContain('Run by <@U0ALICE>');
    expect(body.text).toContain('flow 1400000000000000001, CREATED');
  });

  it('quotes the original command back in errors, escaped', () => {
    const body = errorMessage(
      {
        ok: false,
        message: '`<x>` is not a valid workspace ID.',
        usage: '/tsai workspace show <workspace_id>',
        example: '/tsai workspace show 1',
      },
      { userId: 'U1', commandText: '/tsai workspace show <x>' },
    );
    const s = allText(body);
    expect(s).toContain('You typed: `/tsai workspace show &lt;x&gt;`');
    expect(s).toContain('*Usage:* `/tsai workspace show &lt;workspace_id&gt;`');
    for (const t of texts(body)) expect(t).not.toMatch(/<x>|<workspace_id>/);
  });

  it('lists every command in help and every example in help <command>', () => {
    const all = allText(helpMessage(undefined));
    for (const spec of COMMANDS) expect(all).toContain(escapeMrkdwn(spec.usage).replace(/"/g, '\\"'));
    const one = helpMessage('learn');
    for (const ex of COMMANDS.find((c) => c.id === 'learn')!.examples) {
      expect(allText(one)).toContain(escapeMrkdwn(ex).replace(/"/g, '\\"'));
    }
    expect(one.blocks.length).toBeLessThanOrEqual(50);
  });
});

describe('messages stay within Block Kit limits with huge input (checked by the local Slack validator)', () => {
  const huge = `${'<&>'.repeat(3000)} ${'x'.repeat(20_000)}`;
  it('result, error and help messages', async () => {
    const { validateMessage } = await import('../../standins/localslack/index.js');
    const bodies = [...hugeMessages(huge), helpMessage('score')];
    for (const body of bodies) {
      expect(validateMessage(body.text, body.blocks)).toBeNull();
      expect(body.blocks.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
    }
    expect(JSON.stringify(bodies[0])).toContain('(truncated)');
  });
});
