import { describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { textOf } from '../support/approvals-rig.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const OPS = 'C0OPS';
/** A token of the service's shape, pasted where it does not belong. */
const PASTED = 'tsai-pat-9f8e7d6c5b4a39281706f5e4d3c2b1a0';

let h: Harness;
stackForThisSuite((x) => {
  h = x;
});

/** `/tsai <text>` from alice, and the bot's next reply she sees (text and blocks). */
async function ask(text: string): Promise<string> {
  const user = 'U0ALICE';
  const before = new Set(h.slack.messages(OPS, { user }).map((m) => m.ts));
  const d = await h.slack.sendCommand({ user, channel: OPS, text });
  expect(d.status).toBe(200);
  const reply = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
    10_000,
    `a reply to /tsai ${text.slice(0, 20)}`,
  );
  return `${textOf(reply)}\n${JSON.stringify(reply.blocks ?? [])}`;
}

describe('a token typed where it does not belong is never repeated', () => {
  it('`/tsai connect <token>` is refused without quoting it, and it is kept nowhere', async () => {
    const reply = await ask(`connect ${PASTED}`);
    expect(reply).toContain('the text after `connect`');
    expect(reply).toContain('/tsai connect');
    expect(reply).not.toContain(PASTED);
    expect(reply).not.toContain(PASTED.slice(0, 16));
    expect(h.logs.join('\n')).not.toContain(PASTED.slice(0, 16));
    expect(JSON.stringify(await h.store.listAudit({ limit: 50 }))).not.toContain(PASTED.slice(0, 16));
  });

  it('a token-like word in another command is not echoed under the reply', async () => {
    const reply = await ask(`flows ${PASTED}`);
    expect(reply).not.toContain(PASTED.slice(0, 16));
    expect(reply).toContain('not shown');
  });
});

describe("a service error that echoes the bot's token", () => {
  it('is scrubbed before it is cut, for the person, the audit log and the logs', async () => {
    // The token starts just before the 300th character, where the error text is cut for display.
    const token = h.config.service.token!;
    const cutAt = 300 - Math.ceil(token.length / 2);
    const message = `${'Rejected: the bearer was not accepted for this account. '.repeat(6).slice(0, cutAt)}${token}`;
    await h.addFault({ method: 'POST', path: '/flows$', status: 400, message, count: 1 });
    const fragment = token.slice(0, Math.ceil(token.length / 2) - 1);
    const reply = await ask(
      `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature} range="2026-11-20 08:00 to 2026-11-20 20:00"`,
    );
    expect(reply).toContain('The service rejected the request');
    expect(reply).not.toContain(fragment);
    const audit = await h.store.listAudit({ limit: 5 });
    expect(audit.some((a) => a.outcome === 'error')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(fragment);
    expect(h.logs.join('\n')).not.toContain(fragment);
    await h.clearFaults();
  });
});
