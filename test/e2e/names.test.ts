import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness, startHarness } from '../support/harness.js';

/**
 * Names in commands, through the real bot: the catalog learns names from what the service said, and a
 * command may then give a unique name in quotes where the ID goes. The reply says what it stood for; an
 * ambiguous or unknown name is refused with the candidates, and nothing reaches the service.
 */
const S = SEED;
const W = S.workspaces.pumpStation;
const T = S.signals.temperature;
const P = S.signals.pressure;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // What the catalog learns from ordinary use: a lookup names the workspace, a learn the signal labels.
  await h.commandAndReply(`workspace show ${W}`);
  await h.commandAndReply(`learn workspace=${W} signals=${T}:temperature,${P}:pressure range="last 3 days"`);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.clearServiceRequests();
});

const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
const posted = async () =>
  (await h.serviceRequests()).filter((r) => r.method === 'POST').map((r) => ({ path: r.path, body: r.body }));

describe('names in commands', () => {
  it('a unique name in quotes stands for its ID: the same flow as with the ID, and the reply says which ID', async () => {
    const range = 'range="yesterday 9am to 5pm"';
    await h.commandAndReply(`learn workspace=${W} signals=${T}:temperature ${range}`);
    const byId = await posted();
    await h.clearServiceRequests();

    const reply = await h.commandAndReply(`learn workspace="pump  station a" signals="Temperature" ${range}`);
    const byName = await posted();
    expect(byName).toEqual(byId);
    expect(byName).toHaveLength(1);
    expect((byName[0]!.body as { spec: { workspace: string } }).spec.workspace).toBe(W);
    expect(reply.ephemeralTo).toBeUndefined();
    expect(seen(reply)).toContain(
      `Names resolved: workspace \\"pump  station a\\" → \`${W}\`, signal \\"Temperature\\" → \`${T}\`.`,
    );
  });

  it('a name works positionally, and in replies that are not flows (told privately)', async () => {
    const reply = await h.commandAndReply('workspace show "Pump station A"');
    expect(reply.ephemeralTo).toBe(DEFAULT_USER);
    expect(seen(reply)).toContain(W);
    expect(seen(reply)).toContain(`Names resolved: workspace \\"Pump station A\\" → \`${W}\``);

    const before = new Set(h.slack.messages(DEFAULT_CHANNEL, { user: DEFAULT_USER }).map((m) => m.ts));
    await h.command('use workspace="Pump station A"');
    const note = await h.slack.waitFor(
      (s) =>
        s
          .messages(DEFAULT_CHANNEL, { user: DEFAULT_USER })
          .find(
            (m) => !before.has(m.ts) && m.ephemeralTo === DEFAULT_USER && m.text.startsWith('Names resolved'),
          ),
      5000,
      'the names note',
    );
    expect(note.text).toBe(`Names resolved: workspace "Pump station A" → \`${W}\`.`);
    expect((await h.store.getChannelDefaults(DEFAULT_CHANNEL))?.workspace).toBe(W);
    await h.commandAndReply('use clear');
  });

  it('an ambiguous name is refused with every candidate, an unknown one with the closest; nothing is sent', async () => {
    const created: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await h.commandAndReply('workspace create "Line 4"');
      created.push(/\*Workspace ID\*\\n`(\d+)`/.exec(JSON.stringify(r.blocks))![1]!);
    }
    await h.clearServiceRequests();

    const ambiguous = await h.commandAndReply('workspace show "line 4"');
    expect(ambiguous.ephemeralTo).toBe(DEFAULT_USER);
    expect(seen(ambiguous)).toMatch(/2 workspaces are named \\"line 4\\"/);
    for (const id of created) expect(seen(ambiguous)).toContain(id);
    expect(seen(ambiguous)).toContain('Give the ID instead.');
    // The refusal teaches the command as usual.
    expect(seen(ambiguous)).toContain('/tsai workspace show');

    const unknown = await h.commandAndReply(`learn workspace="Line 9" signals=${T} range=yesterday`);
    expect(seen(unknown)).toMatch(/No workspace named \\"Line 9\\" is known\. Closest: \\"Line 4\\"/);
    expect(await h.askedOfService()).toEqual([]);
  });

  it("another team's names are not this team's: the same name is unknown there", async () => {
    const body = new URLSearchParams({
      token: 'local-verification-token',
      team_id: 'T0OTHER',
      team_domain: 'other',
      channel_id: DEFAULT_CHANNEL,
      channel_name: 'plant-ops',
      user_id: DEFAULT_USER,
      user_name: 'alice',
      command: '/tsai',
      text: 'workspace show "Pump station A"',
      api_app_id: h.slack.appId,
      is_enterprise_install: 'false',
      response_url: `${h.slack.url}/response/none`,
      trigger_id: 'none',
    }).toString();
    const before = new Set(h.slack.messages(DEFAULT_CHANNEL, { user: DEFAULT_USER }).map((m) => m.ts));
    expect((await h.slack.signedPost('/slack/events', body)).status).toBe(200);
    const reply = await h.slack.waitFor(
      (s) =>
        s
          .messages(DEFAULT_CHANNEL, { user: DEFAULT_USER })
          .find((m) => !before.has(m.ts) && m.user !== DEFAULT_USER),
      5000,
      'the reply to the other team',
    );
    expect(seen(reply)).toContain(
      'No workspace named \\"Pump station A\\" is known: the bot knows no workspace',
    );
    expect(await h.askedOfService()).toEqual([]);
  });
});
