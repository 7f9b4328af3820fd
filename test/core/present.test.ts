import { describe, expect, it } from 'vitest';
import type { OpSuccess } from '../../src/core/outcome.js';
import { present } from '../../src/core/present.js';

const created: OpSuccess = {
  ok: true,
  kind: 'service',
  visibility: 'channel',
  title: 'started an EVAL flow',
  facts: [],
  flow: { id: '1353853719423311999', status: 'CREATED' },
};

describe('how an outcome is presented', () => {
  it('tells a created flow in the channel, where it is updated in place when flows are followed', () => {
    expect(present(created, { followsFlows: true })).toMatchObject({ to: 'followed-flow' });
    expect(present(created, { followsFlows: false })).toMatchObject({ to: 'channel' });
    const { flow: _flow, ...noFlow } = created;
    expect(present(noFlow, { followsFlows: true })).toMatchObject({ to: 'channel' });
  });

  it('keeps lookups, lists and errors to the person who asked', () => {
    expect(present({ ...created, visibility: 'ephemeral' }, { followsFlows: true })).toMatchObject({
      to: 'person',
      shown: { kind: 'result' },
    });
    expect(present({ ok: false, message: 'no' }, { followsFlows: true })).toMatchObject({
      to: 'person',
      shown: { kind: 'error', failure: { message: 'no' } },
    });
    expect(present({ ok: true, kind: 'audit-trail', entries: [] }, { followsFlows: true })?.to).toBe(
      'person',
    );
    expect(present({ ok: true, kind: 'tracked-flows', flows: [] }, { followsFlows: true })?.to).toBe(
      'person',
    );
  });

  it('tells changes to channel defaults in the channel, and only their reading privately', () => {
    const defaults = (change: 'set' | 'clear' | 'show', cleared?: boolean) =>
      present(
        {
          ok: true,
          kind: 'channel-defaults',
          change,
          defaults: null,
          ...(cleared === undefined ? {} : { cleared }),
        },
        { followsFlows: false },
      );
    expect(defaults('set')).toMatchObject({ to: 'channel', shown: { kind: 'channel-defaults-set' } });
    expect(defaults('clear', true)).toMatchObject({
      to: 'channel',
      shown: { kind: 'channel-defaults-cleared' },
    });
    expect(defaults('clear', false)).toMatchObject({ to: 'person', shown: { kind: 'nothing-to-clear' } });
    expect(defaults('show')).toMatchObject({ to: 'person', shown: { kind: 'channel-defaults' } });
  });

  it('lists pending requests privately and redraws the ones it found expired', () => {
    const p = present(
      { ok: true, kind: 'pending-approvals', requests: [], expired: [], everyone: true },
      { followsFlows: false },
    );
    expect(p).toEqual({
      to: 'person',
      shown: { kind: 'pending-approvals', requests: [], everyone: true },
      redraw: [],
    });
  });
});
