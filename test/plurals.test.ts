import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { pendingListMessage } from '../src/slack/approvals/card.js';
import { helpMessage } from '../src/slack/views/messages.js';
import { approvalRecord } from './support/fixtures/records.js';

const root = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every piece of text written in the bot's code: its string and template literals, comments aside. */
function literalsOf(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      out.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const HEDGED_PLURAL = /[A-Za-z]\((?:s|es)\)/;

describe('plurals', () => {
  it('no text in the bot hedges a plural with "(s)": counts say "1 request", "2 requests"', () => {
    const found = sources(join(root, 'src')).flatMap((path) =>
      literalsOf(path)
        .filter((t) => HEDGED_PLURAL.test(t))
        .map((t) => `${relative(root, path)}: ${t}`),
    );
    expect(found).toEqual([]);
  });

  it('the scan sees literals where a "(s)" would be', () => {
    const probe = join(root, 'src', 'slack', 'approvals', 'card.ts');
    expect(literalsOf(probe).some((t) => t.includes('pending approval request'))).toBe(true);
    expect(HEDGED_PLURAL.test('2 request(s)')).toBe(true);
  });

  it('the pending list counts its requests in words that agree', () => {
    const request = (id: string) => approvalRecord({ id, approvalsChannelId: 'C0OPS', messageTs: null });
    expect(pendingListMessage([request('1')]).text).toBe('1 pending approval request');
    expect(pendingListMessage([request('1'), request('2')]).text).toBe('2 pending approval requests');
  });

  it("the help and the commands' usage lines say what a range takes without a hedge", () => {
    for (const topic of [undefined, 'learn', 'relearn']) {
      const help = JSON.stringify(helpMessage(topic));
      expect(help).not.toMatch(HEDGED_PLURAL);
    }
    expect(JSON.stringify(helpMessage('learn'))).toContain('range=&lt;time range;…&gt;');
  });
});
