import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as promClient from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { flowStatusLabel, type MetricsExposure, startMetricsExposure } from '../src/metrics/exposure.js';
import { PROM_CLIENT_PARTS } from '../src/metrics/instruments.js';
import { countStoreEvents } from '../src/metrics/metrics.js';
import { openStore, type Store } from '../src/store/index.js';

it("every thread counts with the very Registry, Counter and Histogram that prom-client's entry exports", () => {
  const require = createRequire(import.meta.url);
  expect(require(PROM_CLIENT_PARTS.registry)).toBe(promClient.Registry);
  expect(require(PROM_CLIENT_PARTS.counter)).toBe(promClient.Counter);
  expect(require(PROM_CLIENT_PARTS.histogram)).toBe(promClient.Histogram);
});

let dir: string;
let store: Store;
let exposure: MetricsExposure;
let storeReadFails = false;

beforeAll(async () => {
  // What composeBot does on each thread: this thread's store failures are counted.
  countStoreEvents();
  dir = mkdtempSync(join(tmpdir(), 'tsai-metrics-'));
  store = await openStore(join(dir, 'bot.sqlite'));
  exposure = await startMetricsExposure({
    host: '127.0.0.1',
    port: 0,
    readStore: () => (storeReadFails ? Promise.reject(new Error('no store')) : store.operatorFigures()),
    otherThreads: async () => [],
    onStoreError: () => {},
  });
});
afterAll(async () => {
  await exposure?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${exposure.port()}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

function value(body: string, series: string): number {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('the metrics exposure', () => {
  it('counts a store query that fails, as the store being unavailable when it cannot answer', async () => {
    const errors = 'tsai_store_errors_total{reason="unavailable"}';
    const before = await scrape();
    const broken = await openStore(join(dir, 'closed.sqlite'));
    await broken.close();
    await expect(broken.getState('x')).rejects.toThrow();
    expect(value(await scrape(), errors) - value(before, errors)).toBe(1);
  });

  it('reads the gauges from the store, and still answers when the store does not', async () => {
    await store.createApproval({
      action: 'start',
      modelId: '1070000000000000001',
      requesterId: 'U0ALICE',
      originChannelId: 'C0OPS',
      approvalsChannelId: 'C0OPS',
      createdAt: 1,
      expiresAt: 2,
    });
    expect(value(await scrape(), 'tsai_approvals_pending')).toBe(1);
    storeReadFails = true;
    try {
      const body = await scrape();
      expect(body).toContain('# TYPE tsai_approvals_pending gauge');
      expect(value(body, 'tsai_approvals_pending')).toBe(0);
    } finally {
      storeReadFails = false;
    }
  });

  it('keeps flow statuses to a few labels', () => {
    expect(flowStatusLabel('RUNNING')).toBe('running');
    expect(flowStatusLabel('CANCELED')).toBe('cancelled');
    expect(flowStatusLabel('status of <@U123>')).toBe('other');
  });

  it('reads TSAI_METRICS_PORT and TSAI_METRICS_HOST, with one message for a bad port', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ TSAI_METRICS_PORT: 'OFF', TSAI_METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      port: 'off',
      host: '0.0.0.0',
    });
    expect(() => loadConfig({ TSAI_METRICS_PORT: 'metrics' })).toThrow(
      /TSAI_METRICS_PORT: must be a port number between 0 and 65535, or off/,
    );
  });
});
