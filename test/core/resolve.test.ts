import { describe, expect, it } from 'vitest';
import { isGovernanceCommand, parseCommand } from '../../src/core/grammar/parse.js';
import { defaultName } from '../../src/core/names.js';
import { toDataspec } from '../../src/core/operations/execute.js';
import { type Resolvable, resolveCommand } from '../../src/core/operations/resolve.js';

const NOW = new Date('2026-11-22T09:14:42.500Z');
const W = '1353853719423311872';
const M = '1353853719423311873';
const A = '1353853719423311874';
const D = '1353853719423311875';
const S1 = '1353853719423311876';

function parsed(text: string): Resolvable {
  const out = parseCommand(text);
  if (!out.ok) throw new Error(out.message);
  if (out.command.kind === 'help' || out.command.kind === 'live' || isGovernanceCommand(out.command))
    throw new Error('not resolvable');
  return out.command;
}

describe('defaultName', () => {
  it('is operation, handle and UTC minute', () => {
    expect(defaultName('learn', 'alice', NOW)).toBe('learn by @alice 2026-11-22 09:14Z');
    expect(defaultName('eval', '@bob', NOW)).toBe('eval by @bob 2026-11-22 09:14Z');
  });
});

describe('resolveCommand', () => {
  const ctx = { userName: 'alice', timeZone: 'Asia/Kolkata', now: NOW };

  it('reads EVAL ranges in the user zone and defaults the name', () => {
    const r = resolveCommand(
      parsed(`eval ${A} model=${M} datastream=${D} entities=e1 range="yesterday 9am to 5pm"`),
      ctx,
    );
    if (!r.ok) throw new Error(r.message);
    expect(r.operation).toMatchObject({
      kind: 'eval',
      name: 'eval by @alice 2026-11-22 09:14Z',
      entities: ['e1'],
    });
    if (r.operation.kind !== 'eval') throw new Error('kind');
    expect(new Date(Number(r.operation.range.startNs / 1_000_000n)).toISOString()).toBe(
      '2026-11-21T03:30:00.000Z',
    );
  });

  it('refuses an EVAL range that ends in the future', () => {
    const r = resolveCommand(
      parsed(`eval ${A} model=${M} datastream=${D} entities=e1 range="today 9am to 11pm"`),
      ctx,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/future|before now/);
  });

  it('keeps a given name and builds an inline dataspec named like the flow', () => {
    const r = resolveCommand(
      parsed(`learn workspace=${W} signals=${S1}:t range="2026-11-20 08:00 to 2026-11-20 09:30"`),
      {
        ...ctx,
        timeZone: 'UTC',
      },
    );
    if (!r.ok || r.operation.kind !== 'learn') throw new Error('expected learn');
    expect(toDataspec(r.operation.data)).toEqual({
      name: 'learn by @alice 2026-11-22 09:14Z',
      specs: [
        {
          timeRanges: [{ startTime: '2026-11-20T08:00:00Z', endTime: '2026-11-20T09:30:00Z' }],
          signals: [{ signal: S1, name: 't' }],
        },
      ],
    });
  });

  it('explains an unreadable range with an example', () => {
    const r = resolveCommand(
      parsed(`relearn ${M} workspace=${W} signals=${S1} range="the other day-ish"`),
      ctx,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(/^`range=` could not be read: /);
      expect(r.example).toMatch(/^range="/);
    }
  });
});
