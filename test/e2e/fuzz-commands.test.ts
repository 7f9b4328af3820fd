import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SlashCommand } from '@slack/bolt';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SYSTEM_CLOCK } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { type Bot, composeBot } from '../../src/slack/bot.js';
import { followCommand } from '../../src/slack/command/follow-up.js';
import type { LoggedRequest, RunningEmulator } from '../../standins/emulator/index.js';
import { commandText as slackEncoded } from '../../standins/localslack/command-text.js';
import type { LocalChannel, LocalSlack } from '../../standins/localslack/index.js';
import { emulatorControl } from '../support/emulator.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { commandText, fuzzCases, fuzzSeed, wireProblem } from '../support/fuzz.js';
import { BOT_TOKEN, type Harness, SIGNING_SECRET, startBackends } from '../support/harness.js';
import { captureLogs } from '../support/logs.js';

const USERS = ['U0ALICE', 'U0BOB', 'U0CAROL'];
/** One channel per case in flight, so that each answer can be told apart. */
const FUZZ_CHANNELS: LocalChannel[] = Array.from({ length: 25 }, (_, i) => ({
  id: `C0FUZZ${String(i).padStart(2, '0')}`,
  name: `fuzz-${i}`,
}));
const CHANNELS: LocalChannel[] = [...FUZZ_CHANNELS, { id: 'C0APPROVALS', name: 'approvals' }];
const ENV = { TSAI_APPROVERS: 'U0BOB,U0CAROL', TSAI_APPROVALS_CHANNEL: 'C0APPROVALS' };

/** Log lines that mean the bot failed inside, rather than answering. */
const CRASHES = new Set([
  'command failed inside the bot',
  'operation failed inside the bot',
  'follow-up failed',
  'unhandled error in a Slack listener',
]);

function crashesIn(lines: readonly string[]): { channel?: string; line: string }[] {
  return lines.flatMap((line) => {
    const l = JSON.parse(line) as { msg?: string; channel?: string };
    return l.msg && CRASHES.has(l.msg) ? [{ channel: l.channel, line }] : [];
  });
}

/** What `user` sees in `channel` from anyone else: the bot's answers. */
const answersIn = (slack: LocalSlack, channel: string, user: string) =>
  slack.messages(channel, { user }).filter((m) => m.user !== user && m.kind !== 'command').length;

/** Unhandled rejections anywhere in this file's process (the worker's surface as crash log lines). */
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** The emulator's request log from `since` on, each request checked against the wire schemas. */
async function checkServiceRequests(url: string, since: number): Promise<{ seq: number; count: number }> {
  const log = (await emulatorControl(url)('GET', `requests?since=${since}`)) as LoggedRequest[];
  for (const r of log) {
    const problem = await wireProblem(r);
    if (problem) throw new Error(`a request reached the service that breaks the wire schema: ${problem}`);
  }
  return { seq: log.at(-1)?.seq ?? since, count: log.length };
}

// The bulk: the follow-up of `/tsai` (parse, forms, the runner, the reply) called directly, as the worker
// calls it, on a bot composed exactly as the worker composes its own, against the real emulator and
// local Slack.
describe('fuzzed /tsai texts through the command path', () => {
  let emulator: RunningEmulator;
  let slack: LocalSlack;
  let bot: Bot;
  let dir: string;
  const { lines: logs, destination } = captureLogs();
  beforeAll(async () => {
    ({ emulator, slack } = await startBackends({ channels: CHANNELS }));
    dir = mkdtempSync(join(tmpdir(), 'tsai-fuzz-'));
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      TSAI_BASE_URL: emulator.url,
      TSAI_TOKEN: emulator.token,
      TSAI_ACCOUNT_ID: emulator.accountId,
      TSAI_REQUEST_TIMEOUT_MS: '5000',
      DATABASE_URL: join(dir, 'fuzz.sqlite'),
      LOG_LEVEL: 'info',
      ...ENV,
    });
    const logger = createLogger({ level: config.logLevel, secrets: config.secrets, destination });
    bot = await composeBot(
      {
        config,
        service: {
          baseUrl: emulator.url,
          accountId: emulator.accountId,
          token: emulator.token,
          requestTimeoutMs: 5000,
        },
        clock: SYSTEM_CLOCK,
      },
      logger,
    );
  });
  afterAll(async () => {
    await bot?.close();
    await emulator?.close();
    await slack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every text is answered, nothing crashes, and every request the service gets is valid', async () => {
    const seed = fuzzSeed('/tsai texts, command path');
    const cases = fuzzCases();
    const batch = FUZZ_CHANNELS.length;
    let seq = 0;
    let ran = 0;
    let reachedService = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(commandText, { minLength: batch, maxLength: batch }), async (texts) => {
        const logFrom = logs.length;
        const runs = texts.map(async (typed, i) => {
          const channel = FUZZ_CHANNELS[i]!.id;
          const user = USERS[(ran + i) % USERS.length]!;
          const command = {
            command: '/tsai',
            text: slackEncoded(typed, slack.state, true),
            user_id: user,
            user_name: user.slice(2).toLowerCase(),
            channel_id: channel,
            channel_name: FUZZ_CHANNELS[i]!.name,
            team_id: 'T0LOCAL',
            team_domain: 'local',
            api_app_id: 'A0LOCAL',
            token: 'local-verification-token',
            trigger_id: slack.state.issueTrigger(user),
            response_url: `${slack.url}/response/${slack.state.issueResponseUrl({ user, channel })}`,
          } as SlashCommand;
          const before = answersIn(slack, channel, user);
          await followCommand(command, bot);
          const formOpened = slack.calls.some(
            (c) => c.method === 'views.open' && c.args.trigger_id === command.trigger_id,
          );
          if (answersIn(slack, channel, user) === before && !formOpened)
            throw new Error(`no answer to /tsai ${JSON.stringify(typed)}`);
        });
        const outcomes = await Promise.allSettled(runs);
        ran += texts.length;
        const failed = outcomes.findIndex((o) => o.status === 'rejected');
        if (failed >= 0) throw (outcomes[failed] as PromiseRejectedResult).reason;
        const crash = crashesIn(logs.slice(logFrom))[0];
        if (crash) {
          const i = FUZZ_CHANNELS.findIndex((c) => c.id === crash.channel);
          throw new Error(`the bot failed inside on /tsai ${JSON.stringify(texts[i])}: ${crash.line}`);
        }
        const checked = await checkServiceRequests(emulator.url, seq);
        seq = checked.seq;
        reachedService += checked.count;
      }),
      { seed, numRuns: Math.ceil(cases / batch) },
    );
    console.log(
      `/tsai texts, command path: ${ran} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
        `${reachedService} service requests, all valid`,
    );
    expect(ran).toBeGreaterThanOrEqual(cases);
    // The generator is not all noise: a fair share of the texts are commands the service carried out.
    expect(reachedService).toBeGreaterThan(cases / 20);
    expect(unhandled).toEqual([]);
  }, 600_000);
});

// A few hundred through everything a user's command passes: signed HTTP, Bolt, the ack, the worker thread.
describe('fuzzed /tsai texts through the real Bolt app over signed HTTP', () => {
  let h: Harness;
  stackForThisSuite(
    (started) => {
      h = started;
    },
    { channels: CHANNELS, env: ENV },
  );

  it('each is acked and answered; nothing crashes; every service request is valid', async () => {
    const seed = fuzzSeed('/tsai texts, Bolt over HTTP');
    const texts = fc.sample(commandText, { seed, numRuns: Number(process.env.FUZZ_HTTP_CASES ?? 300) });
    const inFlight = 10;
    let next = 0;
    const lane = async (n: number) => {
      const channel = FUZZ_CHANNELS[n]!.id;
      for (let i = next++; i < texts.length; i = next++) {
        const typed = texts[i]!;
        const user = USERS[i % USERS.length]!;
        const before = answersIn(h.slack, channel, user);
        const delivery = await h.slack.sendCommand({ user, channel, text: typed });
        expect(delivery.status, `ack of /tsai ${JSON.stringify(typed)}`).toBe(200);
        await h.slack.waitFor(
          () =>
            answersIn(h.slack, channel, user) > before ||
            h.slack.calls.some((c) => c.method === 'views.open' && c.args.trigger_id === delivery.triggerId),
          10_000,
          `an answer to /tsai ${JSON.stringify(typed)}`,
        );
      }
    };
    await Promise.all(Array.from({ length: inFlight }, (_, n) => lane(n)));
    expect(crashesIn(h.logs)).toEqual([]);
    await checkServiceRequests(h.emulator.url, 0);
    expect(unhandled).toEqual([]);
  }, 300_000);
});
