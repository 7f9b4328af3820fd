import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/grammar/parse.js';
import { findSchedule, readScheduling } from '../../src/core/schedules/manage.js';
import type { Schedule } from '../../src/store/index.js';

describe('reading /tsai schedule, schedules and digest', () => {
  it('hands the text after the word to core/schedules, not to the key table', () => {
    const out = parseCommand('schedule "every weekday at 06:00" learn workspace=1 range="last 8 hours"');
    expect(out.ok && out.command).toEqual({
      kind: 'scheduling',
      id: 'schedule',
      text: '"every weekday at 06:00" learn workspace=1 range="last 8 hours"',
    });
  });

  it.each([
    [
      '"every weekday at 06:00" score 1 workspace=2 range="last 8 hours"',
      {
        kind: 'create',
        whenText: 'every weekday at 06:00',
        commandText: 'score 1 workspace=2 range="last 8 hours"',
      },
    ],
    [
      '“every 8 hours” name="shift learn" /tsai learn workspace=2',
      { kind: 'create', whenText: 'every 8 hours', name: 'shift learn', commandText: 'learn workspace=2' },
    ],
    // Without quotes, the "when" runs up to the first word that starts a command.
    [
      'every Monday at 7 workspace show 2',
      { kind: 'create', whenText: 'every Monday at 7', commandText: 'workspace show 2' },
    ],
    ['pause 2', { kind: 'change', action: 'pause', ref: '2' }],
    ['delete "shift learn"', { kind: 'change', action: 'delete', ref: 'shift learn' }],
  ])('schedule %s', (text, expected) => {
    expect(readScheduling('schedule', text)).toEqual(expected);
  });

  it('digest: a "when" or now; schedules: nothing after it', () => {
    expect(readScheduling('digest', '"every weekday at 07:00"')).toEqual({
      kind: 'digest',
      whenText: 'every weekday at 07:00',
    });
    expect(readScheduling('digest', 'NOW')).toEqual({ kind: 'digest-now' });
    expect(readScheduling('schedules', '')).toEqual({ kind: 'list' });
    expect(readScheduling('schedules', 'all')).toMatchObject({ ok: false, example: '/tsai schedules' });
  });

  it.each([[''], ['"every day at 06:00"'], ['every day at 06:00']])('refuses %j with an example', (text) => {
    const r = readScheduling('schedule', text);
    expect(r).toMatchObject({ ok: false });
    expect((r as { example: string }).example).toMatch(/^\/tsai schedule "every weekday at 06:00" score /);
  });

  it('finds a schedule by its number, name (any case) or ID', () => {
    const list = [
      { id: 'aaaaaaaaaaaa', name: 'Shift learn' },
      { id: 'bbbbbbbbbbbb', name: 'nightly' },
    ] as Schedule[];
    expect(findSchedule(list, '2')?.id).toBe('bbbbbbbbbbbb');
    expect(findSchedule(list, 'shift LEARN')?.id).toBe('aaaaaaaaaaaa');
    expect(findSchedule(list, 'bbbbbbbbbbbb')?.name).toBe('nightly');
    expect(findSchedule(list, '3')).toBeUndefined();
  });
});
