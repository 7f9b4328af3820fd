import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/grammar/parse.js';

const W = '1353853719423311872';
const D = '1353853719423311875';

describe('parseCommand: use, approvals, audit', () => {
  it.each([
    ['use', { kind: 'use', action: 'show' }],
    ['use clear', { kind: 'use', action: 'clear' }],
    ['USE Clear', { kind: 'use', action: 'clear' }],
    [
      `use workspace=${W} datastream=${D} entities="pump-1, pump-2,pump-1"`,
      { kind: 'use', action: 'set', values: { workspace: W, datastream: D, entities: ['pump-1', 'pump-2'] } },
    ],
    [
      'use shifts=06:00,14:00,22:00',
      {
        kind: 'use',
        action: 'set',
        values: { shifts: [{ start: '06:00' }, { start: '14:00' }, { start: '22:00' }] },
      },
    ],
    [
      'use shifts=Night@22:00,morning@6:00',
      {
        kind: 'use',
        action: 'set',
        values: {
          shifts: [
            { start: '06:00', name: 'morning' },
            { start: '22:00', name: 'night' },
          ],
        },
      },
    ],
    ['use shifts=none', { kind: 'use', action: 'set', values: { shifts: [] } }],
    ['approvals', { kind: 'approvals' }],
    ['audit', { kind: 'audit' }],
    ['audit 50', { kind: 'audit', limit: 50 }],
  ])('%s', (text, command) => {
    const out = parseCommand(text);
    expect(out.ok && out.command).toEqual(command);
  });

  it.each([
    [`use clear workspace=${W}`, 'takes no options'],
    ['use everything', 'key=value'],
    ['use workspace=123', 'not a valid workspace ID'],
    ['use colour=blue', 'is not an option of `use`'],
    ['use entities=a,,b', 'empty entry'],
    ['use shifts=6am,2pm', 'shifts=06:00,14:00,22:00'],
    ['use shifts=a@06:00,14:00', 'cannot name a shift'],
    ['approvals now', 'Unexpected'],
    ['audit 0', '1 to 100'],
    ['audit 101', '1 to 100'],
    ['audit 5 6', 'Unexpected'],
  ])('%s is refused with a clear message', (text, message) => {
    const out = parseCommand(text);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toContain(message);
  });

  it('channel defaults never fill /tsai use itself', () => {
    const out = parseCommand('use', { defaults: { workspace: W } });
    expect(out.ok && out.command).toEqual({ kind: 'use', action: 'show' });
  });
});
