import { describe, expect, it } from 'vitest';
import { afterBurst, BURST_GAP_MS, BURST_WAIT_MS, onAcksPause } from '../../src/slack/runtime/after-burst.js';
import { waitUntil } from '../support/patience.js';

/** The jobs a burst would hand on, on a clock the test moves (the timers are real; the gaps are the test's). */
function rig() {
  let t = 1_000_000;
  const handed: string[] = [];
  let busy = 0;
  const burst = afterBurst<string>((job) => handed.push(job), { now: () => t, idle: () => t - busy });
  return {
    handed,
    add: (job: string) => burst.add(job),
    flush: () => burst.flush(),
    at: (ms: number) => {
      t += ms;
    },
    /** Time passes while the thread is busy, or not running at all: the loop is not idle. */
    busyFor: (ms: number) => {
      t += ms;
      busy += ms;
    },
  };
}

describe('afterBurst: a burst of acks hands its jobs on once the acks pause', () => {
  it('a lone job goes at once, and so does the next after a gap', () => {
    const r = rig();
    r.add('one');
    expect(r.handed).toEqual(['one']);
    r.at(BURST_GAP_MS);
    r.add('two');
    expect(r.handed).toEqual(['one', 'two']);
  });

  it('jobs within a burst wait for its first gap, then all go in the order they came', async () => {
    const r = rig();
    r.add('first');
    for (const job of ['a', 'b', 'c']) {
      r.at(1);
      r.add(job);
    }
    expect(r.handed).toEqual(['first']);
    r.at(BURST_GAP_MS);
    await waitUntil(() => expect(r.handed).toEqual(['first', 'a', 'b', 'c']));
  });

  it('a job arriving after the gap takes the waiting ones with it, even before their timer fires', () => {
    const r = rig();
    r.add('first');
    r.at(1);
    r.add('waiting');
    r.at(BURST_GAP_MS);
    r.add('after the gap');
    expect(r.handed).toEqual(['first', 'waiting', 'after the gap']);
  });

  it('time the thread spent busy or unscheduled is no gap: the jobs of a burst still wait for a real one', async () => {
    const r = rig();
    r.add('first');
    r.at(1);
    r.add('waiting');
    // The machine runs other threads for longer than a gap; the next requests were waiting all along.
    r.busyFor(BURST_GAP_MS * 3);
    r.add('next');
    expect(r.handed).toEqual(['first']);
    r.at(BURST_GAP_MS);
    await waitUntil(() => expect(r.handed).toEqual(['first', 'waiting', 'next']));
  });

  it('under a steady stream, no job waits longer than the bound', () => {
    const r = rig();
    r.add('first');
    r.at(1);
    r.add('oldest');
    // A job every millisecond, never a gap: nothing goes until the oldest has waited BURST_WAIT_MS.
    for (let waited = 1; waited < BURST_WAIT_MS; waited++) {
      r.at(1);
      r.add(`job ${waited}`);
    }
    expect(r.handed).toEqual(['first']);
    r.at(1);
    r.add('last');
    expect(r.handed).toHaveLength(BURST_WAIT_MS + 2);
    expect(r.handed.slice(0, 3)).toEqual(['first', 'oldest', 'job 1']);
    expect(r.handed.at(-1)).toBe('last');
  });

  it('flush hands on what waits at once (a stop), and nothing is handed twice', () => {
    const r = rig();
    r.add('first');
    r.at(1);
    r.add('waiting');
    r.flush();
    expect(r.handed).toEqual(['first', 'waiting']);
    r.at(BURST_GAP_MS);
    r.add('next');
    expect(r.handed).toEqual(['first', 'waiting', 'next']);
  });
});

describe('onAcksPause: work put off until the acks pause', () => {
  function pauseRig() {
    let t = 1_000_000;
    let runs = 0;
    const pause = onAcksPause(
      () => {
        runs++;
      },
      { now: () => t, idle: () => t },
    );
    return {
      pause,
      runs: () => runs,
      at: (ms: number) => {
        t += ms;
      },
    };
  }

  it('work made due among arrivals waits for their gap, and runs once', async () => {
    const r = pauseRig();
    r.pause.seen();
    r.at(1);
    r.pause.due();
    for (let i = 0; i < 5; i++) {
      r.at(1);
      r.pause.seen();
    }
    expect(r.runs()).toBe(0);
    r.at(BURST_GAP_MS);
    await waitUntil(() => expect(r.runs()).toBe(1));
    r.pause.runNow();
    expect(r.runs()).toBe(1);
  });

  it('work made due when all is quiet runs at once; arrivals alone never make it due', () => {
    const r = pauseRig();
    r.pause.seen();
    r.at(BURST_GAP_MS);
    r.pause.seen();
    r.at(BURST_GAP_MS);
    expect(r.runs()).toBe(0);
    r.pause.due();
    expect(r.runs()).toBe(1);
  });

  it('under a steady stream, due work runs once it has waited the bound', () => {
    const r = pauseRig();
    r.pause.seen();
    r.pause.due();
    for (let waited = 1; waited < BURST_WAIT_MS; waited++) {
      r.at(1);
      r.pause.seen();
      r.pause.due();
    }
    expect(r.runs()).toBe(0);
    r.at(1);
    r.pause.arrived();
    expect(r.runs()).toBe(1);
  });
});
