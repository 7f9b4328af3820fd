import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { DEFAULT_CHANNELS, type LocalMessage } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { DEFAULT_USER, type Harness } from '../support/harness.js';

/**
 * Every example help shows, as typed after `/tsai`, against the demo data of a fresh start: the ones that
 * change nothing first, so that `flow`'s example finds its flow before anything was created.
 */
const EXAMPLES = [...COMMANDS]
  .sort((a, b) => Number(a.mutating) - Number(b.mutating))
  .flatMap((c) => c.examples.map((e) => e.replace(/^\/tsai\s+/, '')));
/** One channel per example, so each reply is told apart from the others' late messages. */
const channelOf = (i: number) => `C0EXAMPLE${i}`;

/** Misspellings, each with what the refusal offers instead; they run after the examples taught the names. */
const TYPOS = [
  [
    'lern workspace=1030000000000000001 dataspec=1080000000000000001',
    'Did you mean `learn`?',
    '/tsai learn ',
  ],
  ['workspace shwo 1030000000000000001', 'Did you mean `show`?', '/tsai workspace show '],
  [
    'learn workspace=1030000000000000001 dataspce=1080000000000000001',
    'Did you mean `dataspec=`?',
    '/tsai learn ',
  ],
  ['workspace show "Pump staton A"', 'Closest: "Pump station A"', '/tsai workspace show '],
] as const;
const typoChannel = (i: number) => `C0TYPO${i}`;

/** Values the bot cannot read: each refusal ends with the whole command, corrected, which then runs. */
const REFUSED = [
  'learn workspace=1030000000000000001 signals=1050000000000000001:temperature range=last 3 dayz name="corrected learn"',
  'eval 1060000000000000001 model=1070000000000000001 datastream=1040000000000000001 entities=pump-1 time="the day before tomorrow" name="corrected eval"',
] as const;
const refusedChannel = (i: number) => `C0REFUSED${i}`;
const correctedChannel = (i: number) => `C0CORRECTED${i}`;

let h: Harness;
stackForThisSuite(
  (started) => {
    h = started;
  },
  {
    env: { TSAI_APPROVERS: DEFAULT_USER },
    channels: [
      ...DEFAULT_CHANNELS,
      ...EXAMPLES.map((_, i) => ({ id: channelOf(i), name: `example-${i}` })),
      ...TYPOS.map((_, i) => ({ id: typoChannel(i), name: `typo-${i}` })),
      ...REFUSED.flatMap((_, i) => [
        { id: refusedChannel(i), name: `refused-${i}` },
        { id: correctedChannel(i), name: `corrected-${i}` },
      ]),
    ],
  },
);

const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

/** The bot's first message the user sees in the channel: on a machine shared by many runs, give it time. */
async function replyIn(channel: string, text: string): Promise<LocalMessage> {
  const delivery = await h.command(text, { channel });
  expect(delivery.status).toBe(200);
  return h.slack.waitFor(
    () =>
      h.slack
        .messages(channel, { user: DEFAULT_USER })
        .find((m) => m.kind !== 'command' && m.user !== DEFAULT_USER),
    30_000,
    `a reply to /tsai ${text}`,
  );
}

describe('every example in help works as typed against the sandbox demo data', () => {
  it('help shows them all', () => {
    expect(EXAMPLES.length).toBeGreaterThan(15);
  });

  it.each(EXAMPLES.map((text, i) => [text, i] as const))('%s', async (text, i) => {
    const s = seen(await replyIn(channelOf(i), text));
    // A refusal of bad input carries the command's usage; nothing else does.
    expect(s).not.toContain('*Usage:*');
    expect(s).not.toMatch(/is not a command|is not an option|not a valid|could not read|not found/i);
    // Every refusal or failure the bot shows starts with one of these.
    expect(s).not.toMatch(/:warning:|:grey_question:/);
  });
});

describe('a misspelling is refused with what was probably meant, and an example that works', () => {
  it.each(TYPOS.map(([text, offer, example], i) => [text, offer, example, i] as const))(
    '%s',
    async (text, offer, example, i) => {
      await h.clearServiceRequests();
      const s = seen(await replyIn(typoChannel(i), text));
      expect(s).toContain(offer);
      expect(s).toContain(`*Example:* \`${example}`);
      expect(await h.askedOfService()).toEqual([]);
    },
  );
});

/** The texts of a message's sections, as Slack shows them (mrkdwn entities decoded). */
const sectionTexts = (m: LocalMessage) =>
  ((m.blocks ?? []) as { type: string; text?: { text?: string } }[])
    .filter((b) => b.type === 'section')
    .map((b) => (b.text?.text ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));

describe('a value the bot cannot read is refused with the whole command corrected, which runs as typed', () => {
  it.each(REFUSED.map((text, i) => [text, i] as const))('%s', async (text, i) => {
    const refusal = await replyIn(refusedChannel(i), text);
    const texts = sectionTexts(refusal);
    // The last thing the refusal shows is the person's own command with the value replaced.
    const last = texts.at(-1) ?? '';
    const corrected = /^\*Corrected:\* `(\/tsai [^`]+)`$/.exec(last)?.[1];
    expect(corrected, last).toBeDefined();
    expect(corrected).toContain(text.split(' ')[0]!);
    expect(corrected).toMatch(/name="corrected (learn|eval)"/);
    expect(corrected).not.toMatch(/dayz|tomorrow/);
    const s = seen(await replyIn(correctedChannel(i), corrected!.replace(/^\/tsai\s+/, '')));
    expect(s).not.toContain('*Usage:*');
    expect(s).toMatch(/flow/i);
    expect(s).not.toMatch(/could not read|is not an option|not found/i);
  });
});
