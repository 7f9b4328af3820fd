import { describe, expect, it } from 'vitest';
import {
  applyChannelDefaults,
  channelDefaultsAsArgs,
  clearChannelDefaults,
  describeValue,
  getChannelDefaults,
  setChannelDefaults,
  validateChannelDefaults,
} from '../../src/core/channel-defaults.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

describe('channel defaults', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });

  it('validates /tsai use arguments', () => {
    expect(validateChannelDefaults({ workspace: '111', entities: ' pump-1, pump 2 ,,pump-1' })).toEqual({
      ok: true,
      values: { workspace: '111', entities: ['pump-1', 'pump 2'] },
    });
    for (const bad of [
      {},
      { workspace: 'abc' },
      { colour: 'red' },
      { entities: ' , ' },
      { model: '<!channel>' },
    ]) {
      const out = validateChannelDefaults(bad);
      expect(out.ok, JSON.stringify(bad)).toBe(false);
      expect(!out.ok && out.example).toContain('/tsai use');
    }
  });

  it('sets, merges, shows and clears per channel, auditing changes', async () => {
    const now = () => T0;
    await setChannelDefaults(store, { channelId: 'C1', values: { workspace: '111' }, userId: 'U0A', now });
    await setChannelDefaults(store, { channelId: 'C1', values: { entities: ['e1'] }, userId: 'U0B', now });
    expect(await getChannelDefaults(store, 'C1')).toMatchObject({
      workspace: '111',
      entities: ['e1'],
      updatedBy: 'U0B',
    });
    expect(await getChannelDefaults(store, 'C2')).toBeNull();
    expect(await clearChannelDefaults(store, { channelId: 'C1', userId: 'U0A', now })).toBe(true);
    expect(await clearChannelDefaults(store, { channelId: 'C1', userId: 'U0A', now })).toBe(false);
    expect(await getChannelDefaults(store, 'C1')).toBeNull();
    expect((await store.listAudit()).map((e) => e.operation)).toEqual([
      'channel.defaults.clear',
      'channel.defaults.set',
      'channel.defaults.set',
    ]);
  });

  it('merges explicit arguments over defaults and reports which came from defaults', () => {
    const defaults = { workspace: '111', datastream: '222', model: '333', entities: ['e1', 'e2'] };
    const merged = applyChannelDefaults(
      { workspace: '999', datastream: '', entities: [] as string[], name: 'x' },
      defaults,
    );
    expect(merged.values).toEqual({
      workspace: '999',
      datastream: '222',
      model: '333',
      entities: ['e1', 'e2'],
      name: 'x',
    });
    expect(merged.fromDefaults).toEqual(['datastream', 'model', 'entities']);
    const limited = applyChannelDefaults({}, defaults, ['workspace']);
    expect(limited).toEqual({ values: { workspace: '111' }, fromDefaults: ['workspace'] });
    expect(applyChannelDefaults({ model: '1' }, null)).toEqual({ values: { model: '1' }, fromDefaults: [] });
    expect(describeValue('workspace', '111', merged.fromDefaults)).toBe('workspace 111');
    expect(describeValue('datastream', '222', merged.fromDefaults)).toBe('datastream 222 (channel default)');
  });

  it('renders defaults as command arguments for the command path', () => {
    expect(channelDefaultsAsArgs({ workspace: '111', entities: ['e1', 'e2'] })).toEqual({
      workspace: '111',
      entities: 'e1,e2',
    });
    expect(channelDefaultsAsArgs({})).toBeNull();
    expect(channelDefaultsAsArgs(null)).toBeNull();
  });
});
