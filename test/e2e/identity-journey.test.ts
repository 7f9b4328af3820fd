import { describe, expect, it } from 'vitest';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import { CONNECT_CALLBACK, IDENTITY_ACTION, TOKEN_BLOCK, TOKEN_INPUT } from '../../src/slack/identity/ids.js';
import { type LoggedRequest, SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { DEFAULT_CHANNEL, type Harness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

/**
 * One person's service identity from first connection to revocation, through the real bot (Bolt over
 * HTTP with real signatures, its worker, a SQLite file), the local Slack and the emulator's people:
 * connect, act (the service's log names the person), meet a 403 that names the role, have a request
 * approved with the approver's own identity, be revoked (told once, with Reconnect), reconnect and go on.
 */
let h: Harness;
stackForThisSuite(
  (started) => {
    h = started;
  },
  { env: { TSAI_APPROVERS: 'U0BOB' } },
);

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const WORKSPACE = SEED.workspaces.pumpStation;

const control = () => emulatorControl(h.emulator.url);
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

async function person(name: string, role: 'Owner' | 'Manager' | 'User'): Promise<string> {
  const { token } = (await control()('POST', 'users', { name, role })) as { token: string };
  registerSecrets(token);
  return token;
}

const told = (user: string) =>
  h.slack.messages(DEFAULT_CHANNEL, { user }).filter((m) => m.user !== user && m.kind !== 'command');

/** `/tsai connect` as `user`, the token pasted into the form it opens, and the private word that it took. */
async function connect(user: string, token: string): Promise<void> {
  const before = h.slack.topView(user)?.id;
  const earlier = told(user).length;
  expect((await h.command('connect', { user })).status).toBe(200);
  await h.slack.waitFor(
    () =>
      told(user)
        .slice(earlier)
        .find((m) => m.text.includes('The Connect form is open')),
    8000,
    'the word that the Connect form is open',
  );
  const form = await h.slack.waitFor(
    (s) => {
      const v = s.topView(user);
      return v && v.view.callback_id === CONNECT_CALLBACK && v.id !== before ? v : undefined;
    },
    8000,
    'the Connect form',
  );
  const answer = await h.slack.submitView({
    user,
    viewId: form.id,
    values: { [TOKEN_BLOCK]: { [TOKEN_INPUT]: token } },
  });
  expect(answer.errors).toBeUndefined();
  await h.slack.waitFor(
    () =>
      told(user)
        .slice(earlier + 1)
        .find((m) => /You are connected/.test(m.text)),
    8000,
    'the word that the token was kept',
  );
}

/** The service requests made after `from` entries of the log. */
const requestsSince = async (from: number): Promise<LoggedRequest[]> =>
  (await h.serviceRequests()).slice(from);

const replyTo = (text: string, user: string) => h.commandAndReply(text, { user });

describe('a person acts as themselves, from connecting to being revoked', () => {
  it('carol connects with the token the service gave her, and her reads are hers in the service’s log', async () => {
    const token = await person('carol', 'User');
    await connect(CAROL, token);
    expect(seen(await replyTo('whoami', CAROL))).toMatch(/connected/i);

    const from = (await h.serviceRequests()).length;
    const shown = seen(await replyTo(`workspace show ${WORKSPACE}`, CAROL));
    expect(shown).toContain(WORKSPACE);
    const reads = (await requestsSince(from)).filter((r) => r.path.endsWith(`/workspace/${WORKSPACE}`));
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r.user).toBe('carol');
    expect(JSON.stringify(await h.serviceRequests())).not.toContain(token);
  });

  it('moving a model needs a Manager: carol, a User, is told which role, and nothing moves', async () => {
    const from = (await h.serviceRequests()).length;
    const reply = seen(
      await replyTo(`model move ${SEED.models.temperatureAnomaly} to ${SEED.workspaces.sandbox}`, CAROL),
    );
    expect(reply).toMatch(/Manager or Owner/);
    expect(reply).not.toMatch(/\b403\b/);
    const moves = (await requestsSince(from)).filter((r) => r.method !== 'GET');
    expect(moves.every((r) => r.status === 403 && r.user === 'carol')).toBe(true);
  });

  it('an approved live start runs as the approver, and its name says who asked and who allowed', async () => {
    await connect(BOB, await person('bob', 'Manager'));
    const cardsBefore = h.slack.messages(DEFAULT_CHANNEL).length;
    await h.command(`live start ${SEED.models.pressureCommon} reason="maintenance done"`, { user: ALICE });
    const card = await h.slack.waitFor(
      () =>
        h.slack
          .messages(DEFAULT_CHANNEL)
          .slice(cardsBefore)
          .find((m) => JSON.stringify(m.blocks ?? []).includes(APPROVAL_ACTION.approve)),
      8000,
      'the approval card',
    );
    await h.slack.clickButton({
      user: BOB,
      channel: DEFAULT_CHANNEL,
      messageTs: card.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    const created = await eventually(async () =>
      (await h.serviceRequests()).find(
        (r) =>
          r.method === 'POST' &&
          (r.body as { flowType?: string } | undefined)?.flowType === 'STARTLIVEMODEL' &&
          r.status === 201,
      ),
    );
    expect(created.user).toBe('bob');
    expect((created.body as { name: string }).name).toMatch(/requested by @alice, approved by @bob/);
    const audit = await eventually(async () =>
      (await h.store.listAudit({ operationPrefixes: ['flow.STARTLIVEMODEL'] })).find(
        (e) => e.outcome === 'ok',
      ),
    );
    expect(audit).toMatchObject({ userId: BOB, params: { actedAs: 'own token', requestedBy: ALICE } });
  });

  it('revoked: carol is told once, with Reconnect, and after reconnecting her command runs again', async () => {
    await control()('DELETE', 'users/carol');
    const first = seen(await replyTo(`workspace show ${WORKSPACE}`, CAROL));
    expect(first).toContain(IDENTITY_ACTION.connect);
    expect(first).toContain(`workspace show ${WORKSPACE}`);

    const from = (await h.serviceRequests()).length;
    await replyTo(`workspace show ${WORKSPACE}`, CAROL);
    // Not sent again with the token the service turned down.
    expect((await requestsSince(from)).filter((r) => r.user === null)).toEqual([]);

    await connect(CAROL, await person('carol', 'User'));
    const again = (await h.serviceRequests()).length;
    expect(seen(await replyTo(`workspace show ${WORKSPACE}`, CAROL))).toContain(WORKSPACE);
    const reads = (await requestsSince(again)).filter((r) => r.path.endsWith(`/workspace/${WORKSPACE}`));
    expect(reads.map((r) => r.user)).toContain('carol');
  });
});
