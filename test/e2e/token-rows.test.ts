import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { textOf } from '../support/approvals-rig.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

let h: Harness;
stackForThisSuite((x) => {
  h = x;
});

const OPS = 'C0OPS';
const SINCE = Date.UTC(2026, 10, 20, 9);

/** `/tsai whoami` as `user`, and the answer. */
async function whoami(user: string): Promise<string> {
  const before = new Set(h.slack.messages(OPS, { user }).map((m) => m.ts));
  await h.slack.sendCommand({ user, channel: OPS, text: 'whoami' });
  const reply = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user),
    10_000,
    'the answer to whoami',
  );
  return textOf(reply);
}

/** Someone with the database file: reads and writes rows behind the bot's back. */
function withFile<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(h.databaseUrl);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const person = (userId: string) => ({ teamId: h.slack.teamId, userId });

describe('a token row is read whole or not at all', () => {
  it('a role changed beside the ciphertext makes the person not connected, not an Owner', async () => {
    await h.running.bot.identity.save(person('U0ALICE'), 'alice-service-token-1', {
      since: SINCE,
      accountId: h.emulator.accountId,
      role: 'User',
    });
    expect(await whoami('U0ALICE')).toContain('You act as yourself');
    withFile((db) => db.prepare("UPDATE person_tokens SET role = 'Owner' WHERE user_id = 'U0ALICE'").run());
    const told = await whoami('U0ALICE');
    expect(told).not.toContain('Owner');
    expect(told).toContain('You are not connected');
  });

  it('an older row of the same person put back is not taken for the current one', async () => {
    const bob = person('U0BOB');
    await h.running.bot.identity.save(bob, 'bob-old-token', {
      since: SINCE,
      accountId: h.emulator.accountId,
    });
    const old = withFile((db) =>
      db.prepare("SELECT * FROM person_tokens WHERE user_id = 'U0BOB'").get(),
    ) as Record<string, unknown>;
    await h.running.bot.identity.save(bob, 'bob-new-token', {
      since: SINCE + 60_000,
      accountId: h.emulator.accountId,
    });
    expect(await h.running.bot.identity.tokenOf(bob)).toBe('bob-new-token');
    // Every column of the old row, put back as it was.
    withFile((db) => {
      const cols = Object.keys(old).filter((c) => c !== 'team_id' && c !== 'user_id');
      db.prepare(
        `UPDATE person_tokens SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE team_id = @team_id AND user_id = @user_id`,
      ).run(old);
    });
    expect(await h.running.bot.identity.tokenOf(bob)).toBeUndefined();
    expect(await whoami('U0BOB')).toContain('You are not connected');
  });
});
