import { describe, expect, it } from 'vitest';
import { paramBytes, storeRefusalInWords, WriteHealthSignal } from '../../src/store/health.js';

const refused = (code: string) => Object.assign(new Error(`refused ${code}`), { code });
const unreachable = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });

describe('the write health signal weighs writes against the ones refused', () => {
  it('after a refusal, a smaller write that fits does not say that writes work again; one as large does', () => {
    const signal = new WriteHealthSignal();
    const heard: unknown[] = [];
    signal.watch((h) => heard.push(h));
    signal.failed(refused('SQLITE_FULL'), 3_000);
    expect(signal.current).toMatchObject({ ok: false, problem: 'its disk is full', bytes: 3_000 });
    signal.wrote(200);
    expect(signal.current.ok).toBe(false);
    signal.failed(refused('SQLITE_FULL'), 1_000);
    // Each refusal is heard; the weight is the largest refused so far.
    expect(heard).toHaveLength(2);
    expect(signal.current).toMatchObject({ bytes: 3_000 });
    signal.wrote(3_000);
    expect(signal.current).toEqual({ ok: true });
    expect(heard.at(-1)).toEqual({ ok: true });
  });

  it('a store that could not be reached is back at its first write, whatever its size', () => {
    const signal = new WriteHealthSignal();
    signal.failed(unreachable, 50_000);
    expect(signal.current).toMatchObject({ ok: false, problem: 'it cannot be reached', bytes: 0 });
    signal.wrote(10);
    expect(signal.current).toEqual({ ok: true });
  });

  it('a bad statement says nothing of the store', () => {
    const signal = new WriteHealthSignal();
    signal.failed(Object.assign(new Error('syntax error'), { code: '42601' }), 10);
    expect(signal.current).toEqual({ ok: true });
  });

  it('says what is wrong in words, and keeps the store message apart for the log', () => {
    expect(storeRefusalInWords(refused('SQLITE_FULL'))).toBe('its disk is full');
    expect(storeRefusalInWords(refused('53100'))).toBe('its disk is full');
    expect(storeRefusalInWords(refused('SQLITE_READONLY_DBMOVED'))).toBe('it is read-only');
    expect(storeRefusalInWords(refused('25006'))).toBe('it is read-only');
    expect(storeRefusalInWords(refused('42501'))).toBe('the bot may not write to it');
    const signal = new WriteHealthSignal();
    signal.failed(unreachable);
    expect(signal.current).toMatchObject({ detail: expect.stringContaining('10.0.0.7:5432') });
    expect(JSON.stringify((signal.current as { problem: string }).problem)).not.toContain('10.0.0.7');
  });

  it('weighs parameters by their bytes', () => {
    expect(paramBytes(['ab', 'é', null, 3, Buffer.alloc(10)])).toBe(2 + 2 + 8 + 10);
  });
});
