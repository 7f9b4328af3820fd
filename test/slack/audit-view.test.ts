import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/core/records.js';
import { auditLine, auditMessage } from '../../src/slack/views/audit.js';

const AT = Date.UTC(2026, 10, 22, 9, 14);
const base: AuditEntry = {
  id: 1,
  at: AT,
  userId: 'U0ALICE',
  teamId: 'T0',
  channelId: 'C0OPS',
  operation: 'flow.ANOMALYLEARN',
  params: {},
  outcome: 'ok',
  flowId: null,
  flowStatus: null,
  error: null,
  requestId: null,
};
const line = (e: Partial<AuditEntry>) => auditLine({ ...base, ...e });
const stamp = `<!date^${AT / 1000}^{date_short_pretty} {time}|2026-11-22 09:14 UTC>`;

describe('the audit log, as sentences', () => {
  it('a flow creation: when, who, what, its flow and what it concerned; no JSON, no ISO times', () => {
    const text = line({
      flowId: '1400000000000000001',
      flowStatus: 'CREATED',
      params: {
        kind: 'learn',
        name: 'learn by @alice',
        workspaceId: '1030000000000000001',
        data: {
          kind: 'inline',
          signals: [{ signal: '1050000000000000001', name: 'temperature' }],
          ranges: [
            { start: '2026-11-21T09:00:00.000Z', end: '2026-11-21T17:00:00.000Z' },
            { start: '2026-11-20T09:00:00.000Z', end: '2026-11-20T17:00:00.000Z' },
          ],
        },
      },
    });
    expect(text).toBe(
      `${stamp}: <@U0ALICE> started an ANOMALYLEARN flow \`1400000000000000001\` (CREATED). Name "learn by @alice", workspace \`1030000000000000001\`, 1 signal, 2 time ranges.`,
    );
    expect(text.slice(stamp.length)).not.toMatch(/[{}]|\d{4}-\d\d-\d\dT/);
  });

  it.each([
    [
      {
        operation: 'approval.request',
        params: { action: 'start', model: '1070000000000000002', reason: 'new baseline' },
        requestId: 'r1',
      },
      '<@U0ALICE> asked to start a live model. Model `1070000000000000002`, reason "new baseline", request `r1`.',
    ],
    [
      {
        operation: 'approval.expire',
        userId: 'system',
        params: { action: 'stop', expiresAt: '2026-11-23T09:14:00.000Z' },
      },
      'The bot let a request expire unanswered.',
    ],
    [
      {
        operation: 'policy.refused',
        outcome: 'refused' as const,
        error: 'not-operator',
        params: { operation: 'learn' },
      },
      '<@U0ALICE> was refused `learn`. It was refused: not-operator.',
    ],
    [
      { operation: 'workspace.create', outcome: 'error' as const, error: 'The service is down.' },
      '<@U0ALICE> created a workspace. It failed: The service is down.',
    ],
    [
      { operation: 'flow.EVAL', outcome: 'unknown' as const },
      '<@U0ALICE> started an EVAL flow. Its outcome is unknown.',
    ],
    [
      { operation: 'some.new', params: { name: '<!channel>' } },
      '<@U0ALICE> ran `some.new`. Name "&lt;!channel&gt;".',
    ],
  ])('%o', (e, sentence) => {
    expect(line(e)).toBe(`${stamp}: ${sentence}`);
  });

  it('counts its entries in the right number', () => {
    expect(auditMessage([base]).text).toBe('Audit log: 1 entry');
    expect(JSON.stringify(auditMessage([base]).blocks)).toContain('the latest entry*');
    expect(auditMessage([base, { ...base, id: 2 }]).text).toBe('Audit log: 2 entries');
    expect(JSON.stringify(auditMessage([base, base]))).not.toContain('(s)');
  });
});

describe('whose service identity acted', () => {
  it("names a person's own token, the bot's shared identity, and who asked for an approved flow; never a token", () => {
    expect(line({ operation: 'workspace.create', params: { name: 'Pumps', actedAs: 'own token' } })).toBe(
      `${stamp}: <@U0ALICE> (as themselves, with their own token) created a workspace. Name "Pumps".`,
    );
    expect(
      line({
        userId: 'U0BOB',
        operation: 'flow.STARTLIVEMODEL',
        flowId: '1400000000000000009',
        flowStatus: 'CREATED',
        requestId: 'r7',
        params: {
          model: '1070000000000000003',
          actedAs: "the bot's shared identity",
          requestedBy: 'U0ALICE',
        },
      }),
    ).toBe(
      `${stamp}: <@U0BOB> (as the bot's shared identity) started a STARTLIVEMODEL flow \`1400000000000000009\` (CREATED). Model \`1070000000000000003\`, requested by <@U0ALICE>, request \`r7\`.`,
    );
  });
});
