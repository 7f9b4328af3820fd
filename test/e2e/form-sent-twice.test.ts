import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SENT_AGAIN } from '../../src/slack/forms/once.js';
import { fieldActionId, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage, OpenView } from '../../standins/localslack/index.js';
import { describePg, type FreshDatabase, freshDatabase } from '../support/fixtures/store.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness, startHarness } from '../support/harness.js';

/**
 * A form sent again with the same values (Slack gave up waiting for the first acknowledgement, and the
 * person pressed Submit again) creates nothing new, and the person is told what the first one did: one
 * after the other, at the same moment, and after a really slow acknowledgement (the bot's database held
 * up by a lock while Slack's 3 seconds ran out). On PostgreSQL, which replicas share.
 */
const S = SEED;
const M = S.models.temperatureAnomaly;
const USER = DEFAULT_USER;
const CH = DEFAULT_CHANNEL;
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

let db: FreshDatabase;
let h: Harness;

describePg('a form sent twice runs once', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    h = await startHarness({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  /**
   * A Score form with everything but its outputs filled in from the command, opened and its zone known. On
   * a machine whose cores are busy the follow-up may miss the trigger's 3 seconds; the person runs the
   * command again, as here.
   */
  async function openScore(name: string): Promise<OpenView> {
    for (let attempt = 1; ; attempt++) {
      const before = h.slack.topView(USER)?.id;
      const expired = () =>
        h.slack.calls.filter((c) => c.method === 'views.open' && c.response.ok !== true).length;
      const expiredBefore = expired();
      const d = await h.command(
        `score ${M} workspace=${S.workspaces.pumpStation} dataspec=${S.dataspec} name="${name}"`,
      );
      expect(d.status).toBe(200);
      const opened = await h.slack.waitFor(
        (s) => {
          const v = s.topView(USER);
          if (v && v.view.callback_id === MODAL_CALLBACK.score && v.id !== before)
            return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
          return expired() > expiredBefore && attempt < 3 ? 'again' : undefined;
        },
        60_000,
        'the Score form',
      );
      if (opened !== 'again') return opened;
    }
  }

  async function outputsOf(v: OpenView) {
    const d = await h.slack.sendOptionsRequest({
      user: USER,
      viewId: v.id,
      blockId: 'outputs',
      actionId: fieldActionId('outputs'),
      value: `${S.signals.anomalyScore}:anomaly_score`,
    });
    const first = d.options?.[0]?.value;
    expect(first).toBeDefined();
    return { outputs: { [fieldActionId('outputs')]: [first] } };
  }

  const flowsNamed = async (name: string) =>
    (await h.serviceRequests()).filter(
      (r) => r.method === 'POST' && r.path.endsWith('/flows') && (r.body as { name?: string }).name === name,
    );

  /** What the person is told, in the channel or privately, that names `text`. */
  const toldAbout = (text: string) => () =>
    h.slack.messages(CH, { user: USER }).filter((m) => m.user !== USER && seen(m).includes(text));

  async function oneFlowAndTold(name: string): Promise<void> {
    const told = await h.slack.waitFor(
      () => {
        const ms = toldAbout(name)();
        return ms.some((m) => seen(m).includes(SENT_AGAIN)) ? ms : undefined;
      },
      120_000,
      'the first outcome, and the second submission answered with it',
    );
    expect(await flowsNamed(name)).toHaveLength(1);
    const again = told.find((m) => seen(m).includes(SENT_AGAIN))!;
    const [flowId] = seen(await flowsNamedReply(name)).match(/\b14\d{17}\b/) ?? [];
    expect(flowId).toBeDefined();
    // The second is answered with the first one's flow, not a new one.
    expect(seen(again)).toContain(flowId!);
  }

  const flowsNamedReply = (name: string) =>
    h.slack.waitFor(
      () => toldAbout(name)().find((m) => !seen(m).includes(SENT_AGAIN) && /\b14\d{17}\b/.test(seen(m))),
      30_000,
      'the first submission’s result',
    );

  it('sent again after it was answered: nothing new, the first outcome told', async () => {
    const v = await openScore('sent twice, one after the other');
    const values = await outputsOf(v);
    // The first acknowledgement closes the form; Slack had given up on it, so the person still sees it.
    const first = await h.slack.submitView({ user: USER, viewId: v.id, values });
    expect(first.status).toBe(200);
    await flowsNamedReply('sent twice, one after the other');
    h.slack.state.stack(USER).push(v);
    const second = await h.slack.submitView({ user: USER, viewId: v.id, values });
    expect(second.status).toBe(200);
    await oneFlowAndTold('sent twice, one after the other');
  }, 300_000);

  it('sent twice at the same moment: one flow', async () => {
    const v = await openScore('sent twice at once');
    const values = await outputsOf(v);
    const [a, b] = await Promise.all([
      h.slack.submitView({ user: USER, viewId: v.id, values }),
      h.slack.submitView({ user: USER, viewId: v.id, values }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await oneFlowAndTold('sent twice at once');
  }, 300_000);

  it('a changed value is a new submission', async () => {
    const v = await openScore('changed and sent again');
    const values = await outputsOf(v);
    await h.slack.submitView({ user: USER, viewId: v.id, values });
    await flowsNamedReply('changed and sent again');
    h.slack.state.stack(USER).push(v);
    // The same view with another name: the person changed what they asked, so it runs.
    const renamed = { ...values, name: { [fieldActionId('name')]: 'changed and sent again, renamed' } };
    await h.slack.submitView({ user: USER, viewId: v.id, values: renamed });
    await flowsNamedReply('changed and sent again, renamed');
    expect(await flowsNamed('changed and sent again')).toHaveLength(1);
    expect(await flowsNamed('changed and sent again, renamed')).toHaveLength(1);
  });

  it('after a slow acknowledgement (Slack gave up waiting) the same form sent again: one flow', async () => {
    const v = await openScore('sent again after a slow ack');
    const values = await outputsOf(v);
    // Another session holds the table the bot marks each request in: its acknowledgement waits past 3 s.
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE requests_seen IN EXCLUSIVE MODE');
      const slow = await h.slack.submitView({ user: USER, viewId: v.id, values });
      expect(slow.status).toBe(0);
      expect(slow.errors).toEqual({ _: 'We had some trouble connecting. Try again?' });
      expect(h.slack.topView(USER)?.id).toBe(v.id);
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
    }
    // The person presses Submit again on the form Slack still shows.
    const again = await h.slack.submitView({ user: USER, viewId: v.id, values });
    expect(again.status).toBe(200);
    await oneFlowAndTold('sent again after a slow ack');
  }, 300_000);
});
