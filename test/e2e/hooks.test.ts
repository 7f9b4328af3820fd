import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestParams } from '../../src/core/operations/params.js';
import type { LiveRequest, MissingArgsRequest } from '../../src/slack/deps.js';
import { SEED } from '../../src/standins/emulator/index.js';
import { type Harness, startHarness } from '../support/harness.js';

/** The seams later parts plug into, exercised through the real command path. */
let h: Harness;
const modalCalls: MissingArgsRequest[] = [];
const liveCalls: LiveRequest[] = [];
const recorded: { kind: string; params: Record<string, unknown>; ok: boolean; flowId?: string }[] = [];
beforeAll(async () => {
  h = await startHarness({
    hooks: {
      openModalForMissingArgs: async (req) => {
        modalCalls.push(req);
        return req.which !== 'score'; // pretend score has no modal: falls back to the usage error
      },
      fileLiveRequest: async (req) => {
        liveCalls.push(req);
        await req.respond({ response_type: 'ephemeral', text: `filed ${req.request.action}` });
      },
      authorize: async (req) =>
        req.command.user_id === 'U0CAROL' && req.spec.mutating
          ? { allowed: false, message: 'Only operators may do that; ask @bob.' }
          : { allowed: true },
      recordOutcome: async ({ request, outcome }) => {
        recorded.push({
          kind: request.kind,
          params: requestParams(request),
          ok: outcome.ok,
          ...(outcome.ok && outcome.flow ? { flowId: outcome.flow.id } : {}),
        });
      },
      channelDefaults: async (channel) =>
        channel === 'C0GENERAL' ? { workspace: SEED.workspaces.sandbox } : null,
    },
  });
});
afterAll(async () => {
  await h?.close();
});

describe('hooks', () => {
  it('hands missing arguments to the modal hook with the trigger and what was given', async () => {
    const ack = await h.command(`relearn ${SEED.models.temperatureAnomaly}`, { channel: 'C0GENERAL' });
    expect(ack.status).toBe(200);
    // Polled: the hook touches no Slack state, so the stand-in's change-driven waitFor would not see it.
    await vi.waitFor(() => expect(modalCalls).toHaveLength(1), { timeout: 3000 });
    const call = modalCalls[0]!;
    expect(call.which).toBe('relearn');
    expect(call.missing).toEqual(['signals', 'range']);
    expect(call.given).toEqual({ model: SEED.models.temperatureAnomaly, workspace: SEED.workspaces.sandbox });
    expect(call.fromDefaults).toEqual(['workspace']);
    expect(call.command.trigger_id).toBe(ack.triggerId);
    const fallback = await h.commandAndReply(`score ${SEED.models.temperatureAnomaly}`);
    expect(fallback.text).toMatch(/needs/);
  });

  it('hands live start/stop to the approvals hook and calls no service itself', async () => {
    const reply = await h.commandAndReply(
      `live stop ${SEED.models.temperatureCommon} reason="maintenance window"`,
    );
    expect(reply.text).toBe('filed stop');
    expect(liveCalls.at(-1)!.request).toEqual({
      kind: 'live',
      action: 'stop',
      modelId: SEED.models.temperatureCommon,
      reason: 'maintenance window',
    });
    expect(await h.serviceRequests()).toEqual([]);
  });

  it('refuses what authorize refuses, before anything reaches the service', async () => {
    await h.clearServiceRequests();
    const refused = await h.commandAndReply('workspace create nope', { user: 'U0CAROL' });
    expect(refused.ephemeralTo).toBe('U0CAROL');
    expect(refused.text).toContain('Only operators may do that');
    expect(await h.serviceRequests()).toEqual([]);
    const lookup = await h.commandAndReply(`workspace show ${SEED.workspaces.sandbox}`, { user: 'U0CAROL' });
    expect(lookup.text).toContain('Sandbox');
  });

  it('uses channel defaults and says so in the channel post', async () => {
    await h.clearServiceRequests();
    const reply = await h.commandAndReply(`learn dataspec=${SEED.dataspec}`, { channel: 'C0GENERAL' });
    const [req] = await h.serviceRequests();
    expect(req!.body).toMatchObject({ spec: { workspace: SEED.workspaces.sandbox } });
    expect(JSON.stringify(reply.blocks)).toContain(
      `From this channel's defaults: workspace ${SEED.workspaces.sandbox} (channel default).`,
    );
  });

  it('reports every executed request and its outcome to recordOutcome, JSON-safe', async () => {
    recorded.length = 0;
    await h.commandAndReply(
      `eval ${SEED.assessments.temperature} model=${SEED.models.temperatureAnomaly} datastream=${SEED.datastream} entities=pump-1 range="yesterday 9am to 5pm"`,
    );
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      kind: 'eval',
      ok: true,
      params: {
        range: { startNs: '2026-11-21T09:00:00Z', endNs: '2026-11-21T17:00:00Z' },
        entities: ['pump-1'],
      },
    });
    expect(recorded[0]!.flowId).toMatch(/^\d+$/);
    await h.commandAndReply('workspace show 1999999999999999999');
    expect(recorded.at(-1)).toMatchObject({ kind: 'workspace-show', ok: false });
  });
});
