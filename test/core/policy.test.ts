import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/core/policy.js';
import { parseIdList } from '../../src/core/principals.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

describe('access policy', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });

  const policy = (
    config: Parameters<typeof createPolicy>[0]['config'],
    groups: Record<string, string[]> = {},
  ) => createPolicy({ store, config, now: () => T0, expandGroup: async (id) => groups[id] ?? [] });

  it('by default everyone may run everything everywhere, and nothing is audited', async () => {
    const p = policy({});
    expect(
      await p.check({ userId: 'U0ANY', channelId: 'C0ANY', operation: 'workspace.create', mutating: true }),
    ).toEqual({
      allowed: true,
    });
    expect(await store.listAudit()).toEqual([]);
  });

  it('only operators (users or group members) run mutating commands; read-only stays open', async () => {
    const p = policy({ operators: ['U0OP', 'S0OPS'] }, { S0OPS: ['U0MEMBER'] });
    const ask = (userId: string, mutating: boolean) =>
      p.check({
        userId,
        teamId: 'T0',
        channelId: 'C1',
        operation: mutating ? 'eval' : 'flow',
        mutating,
        params: { x: 1 },
      });
    expect((await ask('U0OP', true)).allowed).toBe(true);
    expect((await ask('U0MEMBER', true)).allowed).toBe(true);
    expect((await ask('U0STRANGER', false)).allowed).toBe(true);
    const refused = await ask('U0STRANGER', true);
    expect(refused).toMatchObject({
      allowed: false,
      reason: 'not-operator',
      askUsers: ['U0OP'],
      askGroups: ['S0OPS'],
    });
    expect(!refused.allowed && refused.message).toContain('eval');
    const audit = await store.listAudit();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      at: T0,
      userId: 'U0STRANGER',
      teamId: 'T0',
      channelId: 'C1',
      operation: 'policy.refused',
      outcome: 'refused',
      error: 'not-operator',
      params: { operation: 'eval', x: 1 },
    });
  });

  it('refuses any command outside the allowed channels, operators included', async () => {
    const p = policy({ operators: ['U0OP'], allowedChannels: ['C0OPS', 'C0LAB'] });
    expect(
      (await p.check({ userId: 'U0OP', channelId: 'C0LAB', operation: 'eval', mutating: true })).allowed,
    ).toBe(true);
    const out = await p.check({ userId: 'U0OP', channelId: 'C0RANDOM', operation: 'help', mutating: false });
    expect(out).toMatchObject({
      allowed: false,
      reason: 'channel-not-allowed',
      allowedChannels: ['C0OPS', 'C0LAB'],
    });
    expect((await store.listAudit())[0]).toMatchObject({
      operation: 'policy.refused',
      error: 'channel-not-allowed',
    });
  });
});

describe('parseIdList', () => {
  it('accepts commas, spaces and Slack mention syntax; reports the rest', () => {
    expect(parseIdList('U01, S02 <@U03> <!subteam^S04|@ops>,, W05 bob C06')).toEqual({
      ids: ['U01', 'S02', 'U03', 'S04', 'W05'],
      invalid: ['bob', 'C06'],
    });
    expect(parseIdList(undefined)).toEqual({ ids: [], invalid: [] });
  });
});
