import { describe, expect, it } from 'vitest';
import { fillNames, nameKey, parseCommand, type ResolvedNames } from '../../src/core/grammar/parse.js';

const W = '1353853719423311872';
const M = '1353853719423311873';
const S1 = '1353853719423311876';
const S2 = '1353853719423311877';

const NAMES: ResolvedNames = new Map([
  [nameKey('workspace', 'Pump station A'), { id: W }],
  [nameKey('model', 'baseline'), { id: M }],
  [nameKey('signals', 'Inlet temperature'), { id: S1, name: 'inlet temperature' }],
  [nameKey('signals', 'Outlet'), { id: S2 }],
  [nameKey('signals', 'Same as S1'), { id: S1 }],
  [nameKey('outputs', 'Score'), { id: S2, name: 'score' }],
]);

/** The parse with names as placeholders, filled in afterwards. */
function parsedOnce(text: string) {
  const first = parseCommand(text);
  if (first.ok || first.kind !== 'names') throw new Error(`expected names for ${text}`);
  return fillNames(first, NAMES);
}

describe('a command with quoted names is parsed once', () => {
  it.each([
    `relearn "baseline" workspace="Pump station A" signals="Inlet temperature,${S2}:outlet" range=today`,
    `learn workspace="Pump station A" signals="Outlet,Inlet temperature" range="yesterday 9am to 5pm"`,
    `score "baseline" workspace=${W} signals="Inlet temperature" outputs="Score" range=today`,
    // A form opens with what was given: the names as what they stand for.
    `learn workspace="Pump station A" signals="Inlet temperature,${S2}"`,
  ])('filling in the names gives what parsing with them does: %s', (text) => {
    const filled = parsedOnce(text);
    expect(filled).toEqual(parseCommand(text, { names: NAMES }));
    expect(JSON.stringify(filled)).not.toMatch(/[\u{E000}-\u{E002}]/u);
  });

  it('still refuses a signal that a name and an ID (or two names) give twice', () => {
    for (const text of [
      `learn workspace=${W} signals="Same as S1,${S1}" range=today`,
      `learn workspace=${W} signals="Same as S1,Inlet temperature" range=today`,
    ]) {
      const filled = parsedOnce(text);
      expect(filled).toEqual(parseCommand(text, { names: NAMES }));
      expect(filled).toMatchObject({ ok: false, kind: 'error', message: expect.stringContaining('twice') });
    }
  });

  it('reads the marks it uses for placeholders as nothing when someone types them', () => {
    expect(parseCommand(`workspace show ${W}\u{E000}`)).toMatchObject({
      ok: true,
      command: { workspaceId: W },
    });
  });
});
