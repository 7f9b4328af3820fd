import { describe, expect, it } from 'vitest';
import {
  automationRows,
  dueVerdict,
  noWorse,
  schedulesResult,
  stepsResult,
} from '../../bench/automation-results.js';
import { minuteAfter, utcClock } from '../../bench/schedules.js';

const ms = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('bench automation figures', () => {
  it('calls a figure no worse at or under its reference, within noise up to the allowance, else missed', () => {
    expect(noWorse(1.1, 1.2, 2)).toBe('ok');
    expect(noWorse(1.2, 1.2, 2)).toBe('ok');
    expect(noWorse(2.3, 1.2, 2)).toBe('within noise');
    expect(noWorse(2.5, 1.2, 2)).toBe('MISSED');
    expect(noWorse(null, 1.2, 2)).toBe('n/a');
    expect(noWorse(1, null, 2)).toBe('n/a');
  });

  it('sets function_executed acks beside the learn command’s ratio at the same concurrency', () => {
    const r = stepsResult(
      {
        ack: [{ concurrency: 50, bot: ms(1, 100), bare: ms(1, 100).map((x) => x / 2) }],
        waiting: {
          steps: 1000,
          created: 1000,
          windowS: 60,
          readsPerSecond: 60,
          mainThreadCpuMsPerS: 6,
          processCpuMsPerS: 150,
          rssMb: { before: 120, during: 170 },
        },
      },
      {
        ack: [
          { command: 'help', concurrency: 50, ratio: { p50: 9, p99: 9 } },
          { command: 'learn', concurrency: 50, ratio: { p50: 1.5, p99: 0.9 } },
        ],
        tracking: {
          readsPerSecond: 65,
          mainThreadCpuMsPerS: 5,
          processCpuMsPerS: 120,
          rssMb: { during: 180 },
        },
      },
    );
    expect(r.ack[0]).toMatchObject({
      concurrency: 50,
      ratio: { p50: 2, p99: 2 },
      commandRatio: { p50: 1.5, p99: 0.9 },
      verdict: { p50: 'within noise', p99: 'MISSED' },
    });
    // 150 against 120 ms/s is 1.25×: beyond the fifth that a minute's CPU moves by.
    expect(r.waiting?.vsFollowedFlows).toEqual({
      readsPerSecond: 0.92,
      mainThreadCpuMsPerS: 1.2,
      processCpuMsPerS: 1.25,
      rssDuringMb: 0.94,
      // 2.5 against 1.85 ms of CPU per read: each step's flow costs more to follow than a flow alone.
      cpuMsPerRead: 1.35,
    });
    expect(r.waiting?.verdict).toBe('MISSED');
  });

  it('has no verdict for step acks when the command acks were not measured in the same run', () => {
    const r = stepsResult({ ack: [{ concurrency: 1, bot: [1, 2], bare: [1, 2] }] }, { ack: [] });
    expect(r.ack[0]?.verdict).toEqual({ p50: 'n/a', p99: 'n/a' });
    expect(r.waiting).toBeUndefined();
  });

  it('passes due runs only when every schedule ran exactly once within 30 s', () => {
    const all = { schedules: 1000, held: 1000, posts: 1000, distinct: 1000 };
    expect(dueVerdict({ ...all, maxStartS: 29.9 })).toBe('ok');
    expect(dueVerdict({ ...all, maxStartS: 31 })).toBe('MISSED');
    expect(dueVerdict({ ...all, posts: 1001, maxStartS: 10 })).toBe('MISSED');
    expect(dueVerdict({ ...all, distinct: 999, posts: 999, maxStartS: 10 })).toBe('MISSED');
    expect(dueVerdict({ ...all, held: 990, maxStartS: 10 })).toBe('MISSED');
    expect(dueVerdict({ ...all, maxStartS: null })).toBe('MISSED');
  });

  it('publishes idle and due schedules with their verdicts, and prints their rows', () => {
    const summary = (xs: number[]) => ({ count: xs.length, p50: xs[0]!, p99: xs.at(-1)!, max: xs.at(-1)! });
    const r = schedulesResult({
      idle: {
        schedules: 10_000,
        held: 10_000,
        createMs: 95_000,
        windowS: 60,
        mainThreadCpuMsPerS: 4,
        processCpuMsPerS: 12.346,
        rssMb: { before: 100, during: 140 },
      },
      due: {
        schedules: 1000,
        held: 1000,
        serviceLatencyMs: 2000,
        posts: 1000,
        distinct: 1000,
        startS: summary([5, 20, 21]),
        ack: {
          before: summary([10, 30]),
          during: summary([15, 90]),
          roundsBefore: [10],
          roundsDuring: [15],
        },
      },
    });
    expect(r.idle).toMatchObject({ processCpuMsPerS: 12.3, createS: 95, verdict: 'ok' });
    expect(r.due).toMatchObject({
      startS: { p50: 5, max: 21 },
      verdict: 'ok',
      helpAckC50: { ratio: { p50: 1.5, p99: 3 } },
      ackVerdict: { p50: 'within noise', p99: 'MISSED' },
    });
    const rows = automationRows({ schedules: r });
    expect(rows.map((row) => row.length)).toEqual(rows.map(() => 6));
    expect(rows[0]).toEqual([
      '10000 idle schedules: CPU ms/s process (main)',
      '12.3 (4)',
      '',
      '',
      '< 50',
      'ok',
    ]);
  });

  it('picks the first whole minute after a lead, and names it as a UTC clock', () => {
    const at = Date.UTC(2026, 10, 27, 14, 3, 20);
    expect(minuteAfter(at, 30_000)).toBe(Date.UTC(2026, 10, 27, 14, 4));
    expect(minuteAfter(at, 40_000)).toBe(Date.UTC(2026, 10, 27, 14, 4));
    expect(minuteAfter(at, 41_000)).toBe(Date.UTC(2026, 10, 27, 14, 5));
    expect(utcClock(Date.UTC(2026, 10, 27, 4, 5))).toBe('04:05');
  });
});
