import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { type Core, createCore } from '../../src/core/compose.js';
import type { Actor } from '../../src/core/operations/operation.js';
import type { Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { type Harness, startHarness } from '../support/emulator.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const ALICE: Actor = {
  userId: 'U0ALICE',
  teamId: 'T0',
  channelId: 'C0OPS',
  asked: '/tsai workspace create x',
  timeZone: 'UTC',
  via: 'command',
  surface: 'command',
};

let emu: Harness;
beforeAll(async () => {
  emu = await startHarness({ maxAttempts: 2, retryBaseDelayMs: 1 });
});
afterAll(async () => {
  await emu.close();
});

describe('the operation runner: authorise, execute, audit', () => {
  let store: Store;
  const logged: { msg: string; o: object }[] = [];
  const core = (o: { operators?: string[]; service?: ServiceClient } = {}): Core =>
    createCore({
      store,
      service: o.service ?? emu.client,
      now: () => NOW,
      log: {
        info: (obj, msg) => void logged.push({ msg, o: obj }),
        error: (obj, msg) => void logged.push({ msg, o: obj }),
      },
      expandGroup: async () => [],
      policy: { operators: o.operators ?? [] },
      approvals: { approvers: ['U0BOB'] },
      timeZone: 'UTC',
    });
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    await emu.reset();
    logged.length = 0;
  });

  it('runs a changing operation once and writes one audit entry with who, where and the outcome', async () => {
    const { operations } = core();
    const result = await operations.run(ALICE, { kind: 'workspace-create', name: 'Pump 9' });
    expect(result).toMatchObject({ ok: true, kind: 'service', title: 'created a workspace' });
    expect((await emu.requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
    const audit = await store.listAudit();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      userId: 'U0ALICE',
      teamId: 'T0',
      channelId: 'C0OPS',
      operation: 'workspace.create',
      params: { kind: 'workspace-create', name: 'Pump 9' },
      outcome: 'ok',
    });
    expect(logged.map((l) => l.msg)).toEqual(['operation handled']);
  });

  it('a flow is audited under its flow type, with its ID; a lookup is not audited', async () => {
    const { operations } = core();
    const learn = await operations.run(ALICE, {
      kind: 'learn',
      name: 'l',
      workspaceId: SEED.workspaces.pumpStation,
      data: { kind: 'dataspec', dataspecId: SEED.dataspec },
    });
    expect(learn.ok).toBe(true);
    await operations.run(ALICE, { kind: 'workspace-show', workspaceId: SEED.workspaces.pumpStation });
    const audit = await store.listAudit();
    expect(audit.map((e) => e.operation)).toEqual(['flow.ANOMALYLEARN']);
    expect(audit[0]!.flowId).toMatch(/^\d+$/);
  });

  it('a refusal by the access policy executes nothing, is audited as refused, and says whom to ask', async () => {
    const { operations } = core({ operators: ['U0BOB'] });
    const result = await operations.run(ALICE, { kind: 'workspace-create', name: 'nope' });
    expect(result).toMatchObject({
      ok: false,
      refusal: { reason: 'not-operator', askUsers: ['U0BOB'] },
    });
    expect(await emu.requests()).toEqual([]);
    expect((await store.listAudit()).map((e) => [e.operation, e.outcome])).toEqual([
      ['policy.refused', 'refused'],
    ]);
    // Lookups stay open to everyone.
    const show = await operations.run(ALICE, {
      kind: 'workspace-show',
      workspaceId: SEED.workspaces.sandbox,
    });
    expect(show.ok).toBe(true);
  });

  it('files an approval request, lists it, and runs the approved flow through the same path, once', async () => {
    const { operations, approvals } = core({ operators: ['U0NOBODY'] });
    const asRequester = { ...ALICE, userId: 'U0NOBODY' };
    const filed = await operations.run(asRequester, {
      kind: 'live-request',
      action: 'start',
      modelId: SEED.models.pressureCommon,
    });
    if (!filed.ok || filed.kind !== 'approval-filed') throw new Error('not filed');
    // The requester and the approvers see it; anyone else does not (core/read-scope.ts).
    for (const who of [asRequester, { ...ALICE, userId: 'U0BOB' }]) {
      const list = await operations.run(who, { kind: 'approvals-list' });
      expect(list).toMatchObject({
        ok: true,
        kind: 'pending-approvals',
        requests: [{ id: filed.request.id }],
      });
    }
    const others = await operations.run(ALICE, { kind: 'approvals-list' });
    expect(others).toMatchObject({ ok: true, kind: 'pending-approvals', requests: [], everyone: false });
    // Bob is an approver but not an operator: an approved request is authorised by its approval.
    const decided = await approvals.decide({
      requestId: filed.request.id,
      userId: 'U0BOB',
      decision: 'approve',
    });
    expect(decided.kind).toBe('executed');
    const flows = (await emu.requests()).filter((r) => r.method === 'POST' && r.path.endsWith('/flows'));
    expect(flows).toHaveLength(1);
    const audit = await store.listAudit({ operationPrefixes: ['flow.'] });
    expect(audit).toEqual([
      expect.objectContaining({
        operation: 'flow.STARTLIVEMODEL',
        userId: 'U0BOB',
        requestId: filed.request.id,
        outcome: 'ok',
      }),
    ]);
  });

  it('an approved flow whose creation may have reached the service is outcome unknown; a refused one may be retried', async () => {
    const { approvals, operations } = core();
    const file = async () => {
      const r = await operations.run(
        { ...ALICE, userId: 'U0REQ' },
        {
          kind: 'live-request',
          action: 'start',
          modelId: SEED.models.pressureCommon,
        },
      );
      if (!r.ok || r.kind !== 'approval-filed') throw new Error('not filed');
      return r.request.id;
    };
    await emu.fault({ method: 'POST', path: '/flows$', reset: 'after', count: 1 });
    const lost = await approvals.decide({ requestId: await file(), userId: 'U0BOB', decision: 'approve' });
    expect(lost.kind).toBe('outcome-unknown');
    await emu.fault({ method: 'POST', path: '/flows$', status: 500, count: 1 });
    const failed = await approvals.decide({ requestId: await file(), userId: 'U0BOB', decision: 'approve' });
    expect(failed.kind).toBe('failed');
  });

  it('an error inside the bot during a call is "outcome unknown", never a crash, and keeps internals out of the reply', async () => {
    const broken = new Proxy(emu.client, {
      get: (target, prop) =>
        prop === 'call'
          ? async () => {
              throw new TypeError('internal detail xoxb-secret');
            }
          : Reflect.get(target, prop),
    });
    const { operations } = core({ service: broken });
    const result = await operations.run(ALICE, { kind: 'workspace-create', name: 'x' });
    expect(result).toMatchObject({ ok: false, outcomeUnknown: true });
    expect(JSON.stringify(result)).not.toContain('xoxb-secret');
    expect((await store.listAudit())[0]).toMatchObject({ operation: 'workspace.create', outcome: 'unknown' });
  });
});
