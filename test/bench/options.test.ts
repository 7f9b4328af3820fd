import { describe, expect, it } from 'vitest';
import { checkBareAsBot, phasesFrom } from '../../bench/run.js';

describe('bench options', () => {
  it('reads the phases named, and refuses one it does not know', () => {
    expect([...phasesFrom('acks, cold')]).toEqual(['acks', 'cold']);
    expect(phasesFrom(undefined).size).toBeGreaterThan(2);
    expect(() => phasesFrom('cold,ackz')).toThrow(/unknown bench phase\(s\) ackz/);
  });

  it('lets an A/A run measure cold starts and acks into a file of its own, and nothing else', () => {
    expect(() => checkBareAsBot(phasesFrom('cold,acks'), false)).not.toThrow();
    expect(() => checkBareAsBot(phasesFrom('acks'), false)).not.toThrow();
    expect(() => checkBareAsBot(phasesFrom('acks'), true)).toThrow(/BENCH_OUT/);
    expect(() => checkBareAsBot(phasesFrom('acks,views'), false)).toThrow(/BENCH_PHASES=cold,acks/);
    expect(() => checkBareAsBot(phasesFrom(undefined), false)).toThrow();
  });
});
