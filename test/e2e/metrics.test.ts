import { describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

let h: Harness;
stackForThisSuite(
  (x) => {
    h = x;
  },
  { env: { TSAI_METRICS_PORT: '0', TSAI_APPROVERS: 'U0BOB' } },
);

const W = SEED.workspaces.pumpStation;

interface Scrape {
  status: number;
  contentType: string | null;
  body: string;
}

async function scrape(path = '/metrics'): Promise<Scrape> {
  const port = h.running.metrics?.port();
  if (!port) throw new Error('the bot serves no metrics');
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
}

/** The value of one series (its name with labels as written, e.g. `x_count{surface="command"}`); 0 when absent. */
function value(body: string, series: string): number {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics on its own port', () => {
  it('answers in the Prometheus text format, and only at /metrics', async () => {
    const s = await scrape();
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(s.body).toContain('# TYPE tsai_ack_duration_seconds histogram');
    expect(s.body).toContain('# TYPE tsai_service_request_duration_seconds histogram');
    expect(s.body).toContain('# TYPE tsai_flows gauge');
    expect(s.body).toContain('# TYPE tsai_approvals_pending gauge');
    expect(s.body).toContain('# TYPE tsai_store_errors_total counter');
    expect(s.body).toContain('# TYPE tsai_retries_total counter');
    expect(s.body).toContain('process_cpu_user_seconds_total');
    expect(s.body).toContain('nodejs_eventloop_lag_seconds');
    expect((await scrape('/slack/events')).status).toBe(404);
    expect(h.running.metrics?.port()).not.toBe(h.running.slack.port());
  });

  it("counts acks on the acking thread and service calls on the worker's, in one scrape", async () => {
    const before = (await scrape()).body;
    await h.commandAndReply(`workspace show ${W}`);
    await h.commandAndReply('help');
    const after = (await scrape()).body;
    const acks = 'tsai_ack_duration_seconds_count{surface="command"}';
    expect(value(after, acks) - value(before, acks)).toBe(2);
    const calls = 'tsai_service_request_duration_seconds_count{operation="workspace-show",outcome="ok"}';
    expect(value(after, calls) - value(before, calls)).toBe(1);
  });

  it('counts a safe service call tried again, and a failed one by its outcome', async () => {
    const retries = 'tsai_retries_total{target="service"}';
    const failed = 'tsai_service_request_duration_seconds_count{operation="workspace-show",outcome="error"}';
    const before = (await scrape()).body;
    await h.addFault({ method: 'GET', path: '/workspace/', status: 503, count: 1 });
    await h.commandAndReply(`workspace show ${W}`);
    await h.clearFaults();
    await h.addFault({ method: 'GET', path: '/workspace/', status: 404, count: 1 });
    await h.commandAndReply(`workspace show ${W}`);
    await h.clearFaults();
    const after = (await scrape()).body;
    expect(value(after, retries) - value(before, retries)).toBe(1);
    expect(value(after, failed) - value(before, failed)).toBe(1);
  });

  it('reads flows by status and pending approvals from the store', async () => {
    const created = 'tsai_flows{status="created"}';
    const before = (await scrape()).body;
    await h.commandAndReply(
      `learn workspace=${W} signals=${SEED.signals.temperature} range="2026-11-20 08:00 to 2026-11-20 20:00"`,
    );
    await h.commandAndReply(`live start ${SEED.models.temperatureCommon} reason="metrics"`);
    const after = (await scrape()).body;
    expect(value(after, created) - value(before, created)).toBe(1);
    expect(value(after, 'tsai_approvals_pending') - value(before, 'tsai_approvals_pending')).toBe(1);
  });

  it('names no person, flow or free text in any label', async () => {
    const { body } = await scrape();
    expect(body).not.toContain('U0ALICE');
    expect(body).not.toContain(W);
    const flows = await h.store.listTrackedFlows({ limit: 10 });
    for (const f of flows) expect(body).not.toContain(f.flowId);
  });
});
