import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/grammar/parse.js';
import { findSchedule } from '../../src/core/schedules/find.js';
import { readScheduling } from '../../src/core/schedules/read.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { newSchedule } from '../support/schedule-conformance.js';

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
    ['stop 2', { kind: 'change', action: 'pause', ref: '2' }],
    ['delete "shift learn"', { kind: 'change', action: 'delete', ref: 'shift learn' }],
    ['take 5c4ed01e0001', { kind: 'change', action: 'take', ref: '5c4ed01e0001' }],
  ])('schedule %s', (text, expected) => {
    expect(readScheduling('schedule', text)).toEqual(expected);
  });

  it('digest: a "when" or now; schedules: a page at most', () => {
    expect(readScheduling('digest', '"every weekday at 07:00"')).toEqual({
      kind: 'digest',
      whenText: 'every weekday at 07:00',
    });
    expect(readScheduling('digest', 'NOW')).toEqual({ kind: 'digest-now' });
    expect(readScheduling('schedules', '')).toEqual({ kind: 'list', page: 1 });
    expect(readScheduling('schedules', '3')).toEqual({ kind: 'list', page: 3 });
    expect(readScheduling('schedules', 'page 2')).toEqual({ kind: 'list', page: 2 });
    expect(readScheduling('schedules', 'all')).toMatchObject({ ok: false, example: '/tsai schedules' });
  });

  it.each([[''], ['"every day at 06:00"'], ['every day at 06:00']])('refuses %j with an example', (text) => {
    const r = readScheduling('schedule', text);
    expect(r).toMatchObject({ ok: false });
    expect((r as { example: string }).example).toMatch(/^\/tsai schedule "every weekday at 06:00" score /);
  });
});

describe('finding a schedule in its channel, however many it has', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  const here = { channelId: 'C0OPS', teamId: 'T0TEAM' };

  it('by its number, its name (any case) or its ID; a name two share asks for the number', async () => {
    const made = [];
    for (let i = 1; i <= 120; i++)
      made.push(
        await store.createSchedule(newSchedule({ name: i === 7 ? 'Shift learn' : `s ${i}`, createdAt: i })),
      );
    await store.createSchedule(newSchedule({ name: 'twin', createdAt: 200 }));
    await store.createSchedule(newSchedule({ name: 'Twin', createdAt: 201 }));
    const elsewhere = await store.createSchedule(newSchedule({ channelId: 'C0ELSE', name: 'other' }));
    const id = async (ref: string) => {
      const f = await findSchedule(store, here, ref);
      return f.ok ? f.schedule.id : f.message;
    };
    expect(await id('2')).toBe(made[1]!.id);
    expect(await id('#115')).toBe(made[114]!.id);
    expect(await id('shift LEARN')).toBe(made[6]!.id);
    expect(await id(made[119]!.id)).toBe(made[119]!.id);
    expect(await id('123')).toMatch(/no schedule `123`.*1 to 122/);
    expect(await id(elsewhere.id)).toMatch(/no schedule/);
    expect(await id('twin')).toMatch(/More than one schedule/);
  });
});
