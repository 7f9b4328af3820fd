import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_USERS } from '../../standins/localslack/index.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../../standins/otlp/receiver.js';
import { eventually } from '../support/emulator.js';
import { BOT_TOKEN, HARNESS_NOW, type Harness, SIGNING_SECRET, startHarness } from '../support/harness.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const OPS = 'C0OPS';
/** What only the person typed: it must appear in no span. */
const TYPED = 'nightshift7f3a';
const LEARN = `learn workspace=${W} signals=${T}:temperature range="2026-11-20 to 2026-11-21" name=${TYPED}`;
/** Bounds for a hang: spans are batched for 5 s, and a busy machine makes everything slower. */
const BOUND_MS = 120_000;

let h: Harness;
let otlp: OtlpReceiver;
beforeAll(async () => {
  otlp = await startOtlpReceiver();
  h = await startHarness({
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
    users: DEFAULT_USERS,
    env: {
      // The standard variables, as an operator sets them; JSON so that the stand-in reads every span.
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'tsai-chatops-test',
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
      TSAI_OPERATORS: 'U0ALICE',
    },
  });
});
afterAll(async () => {
  await h?.close();
  await otlp?.close();
});

const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((s) => s.traceId === traceId);
const named = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name);
const SERVER = 2;
const CLIENT = 3;

describe('traces of the real bot, sent over OTLP/HTTP to a receiver', () => {
  let root: ReceivedSpan;

  it('a typed learn is one trace: its acknowledgement, the gate, the service call, the store, the replies, and its flow’s end told in Slack', async () => {
    const reply = await h.commandAndReply(LEARN, { channel: OPS });
    expect(reply.text).toContain('ANOMALYLEARN');
    root = await otlp.waitFor(
      (spans) => spans.find((s) => s.name === 'slack.command learn' && !s.parentSpanId),
      BOUND_MS,
      'the span of the typed learn',
    );
    expect(root.kind).toBe(SERVER);
    expect(root.attributes).toMatchObject({ 'slack.surface': 'command', 'slack.user.id': 'U0ALICE' });
    expect(root.resource['service.name']).toBe('tsai-chatops-test');
    const trace = await otlp.waitFor(
      (spans) => {
        const t = inTrace(spans, root.traceId);
        return named(t, 'flow.end') && t.some((s) => s.name.startsWith('slack chat.')) ? t : undefined;
      },
      BOUND_MS,
      "the learn's trace to its flow's end",
    );
    const ack = named(trace, 'ack')!;
    expect(ack.parentSpanId).toBe(root.spanId);
    // The follow-up ran on the worker thread, in the same trace as the acknowledgement.
    const followUp = named(trace, 'follow-up command')!;
    expect(followUp.parentSpanId).toBe(root.spanId);
    expect(followUp.attributes['thread.name']).toBe('follow-ups');
    expect(named(trace, 'gate')!.attributes).toMatchObject({
      'gate.outcome': 'passed',
      'tsai.operation': 'learn',
    });
    const call = trace.find(
      (s) => s.name === 'service.call' && s.attributes['http.request.method'] === 'POST',
    )!;
    expect(call.kind).toBe(CLIENT);
    expect(call.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'http.response.status_code': 201,
    });
    expect(String(call.attributes['url.path'])).toMatch(/^\/api\//);
    expect(
      trace.some((s) => s.name.startsWith('store.') && s.attributes['db.system.name'] === 'sqlite'),
    ).toBe(true);
    expect(trace.some((s) => s.name === 'slack.reply')).toBe(true);
    // The flow's end is told in the request's own trace, from a round of following linked to it.
    const end = named(trace, 'flow.end')!;
    expect(end.attributes).toMatchObject({ 'flow.type': 'ANOMALYLEARN', 'flow.status': 'COMPLETED' });
    expect(trace.some((s) => s.parentSpanId === end.spanId || isBelow(trace, s, end))).toBe(true);
    const rounds = otlp.spans().filter((s) => s.name === 'flow.follow');
    expect(rounds.some((r) => r.links.some((l) => l.traceId === root.traceId))).toBe(true);
    expect(rounds.every((r) => r.traceId !== root.traceId)).toBe(true);

    // The service was told the same trace: the emulator received the service call's own traceparent.
    const created = (await h.serviceRequests()).find((r) => r.method === 'POST');
    expect(created?.traceparent).toBe(`00-${root.traceId}-${call.spanId}-01`);

    // The follow-up's log lines name the trace, from the worker thread too.
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.msg === 'operation handled' && l.trace_id === root.traceId)).toBe(true);
  });

  it('a request the gate refuses says which guarantee refused it', async () => {
    await h.commandAndReply(LEARN.replace(TYPED, 'second'), { channel: OPS, user: 'U0BOB' });
    const gate = await otlp.waitFor(
      (spans) => spans.find((s) => s.name === 'gate' && s.attributes['gate.outcome'] === 'refused'),
      BOUND_MS,
      'a refusing gate span',
    );
    expect(gate.attributes['gate.refused_by']).toBe('operator');
    const trace = inTrace(otlp.spans(), gate.traceId);
    expect(trace.some((s) => s.name === 'service.call')).toBe(false);
  });

  it('a schedule’s run is a trace of its own, linked to the request that made the schedule', async () => {
    await h.commandAndReply(`schedule "every day at 11:00" name=traced workspace show ${W}`, {
      channel: OPS,
    });
    const made = await otlp.waitFor(
      (spans) => spans.find((s) => s.name === 'slack.command schedule' && !s.parentSpanId),
      BOUND_MS,
      'the span of the typed schedule',
    );
    const kept = await eventually(
      async () => (await h.store.listSchedules({ channelId: OPS })).find((s) => s.name === 'traced'),
      BOUND_MS,
    );
    expect(kept.traceParent).toContain(made.traceId);
    h.clock.set(HARNESS_NOW.getTime() + 60 * 60_000 + 5_000);
    const run = await otlp.waitFor(
      (spans) => spans.find((s) => s.name === 'schedule.run' && s.attributes['schedule.id'] === kept.id),
      BOUND_MS,
      'the span of the scheduled run',
    );
    expect(run.parentSpanId).toBeFalsy();
    expect(run.traceId).not.toBe(made.traceId);
    expect(run.links.map((l) => l.traceId)).toContain(made.traceId);
    // The run's own call to the service is in the run's trace.
    const call = await otlp.waitFor(
      (spans) => inTrace(spans, run.traceId).find((s) => s.name === 'service.call'),
      BOUND_MS,
      "the run's service call",
    );
    expect(call.attributes['http.request.method']).toBe('GET');
  });

  it('no span holds a token, a secret, a person’s name or anything typed', () => {
    const secrets = [BOT_TOKEN, SIGNING_SECRET, h.emulator.token, TYPED, 'Alice', 'Bob', 'range='];
    for (const s of otlp.spans()) {
      const text = JSON.stringify([s.name, s.attributes, s.status, s.resource]);
      for (const secret of secrets) expect(text, `span ${s.name}`).not.toContain(secret);
    }
    // The root span of a request is named by the command's word alone, whatever else was typed.
    expect(
      otlp
        .spans()
        .filter((s) => s.name.startsWith('slack.command'))
        .map((s) => s.name),
    ).toEqual(expect.arrayContaining(['slack.command learn']));
  });
});

/** Whether `s` descends from `ancestor` within the trace. */
function isBelow(trace: ReceivedSpan[], s: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(trace.map((x) => [x.spanId, x]));
  for (let p = s.parentSpanId; p; p = byId.get(p)?.parentSpanId) if (p === ancestor.spanId) return true;
  return false;
}
