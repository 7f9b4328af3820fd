import { describe, expect, it } from 'vitest';
import { correctedCommand } from '../../src/core/grammar/corrected.js';
import { parseCommand } from '../../src/core/grammar/parse.js';

const W = '1030000000000000001';
const T = '1050000000000000001';

describe('the whole corrected command a refusal ends with', () => {
  it('replaces a free-text value with every word it ran on over, and keeps the rest as typed', () => {
    const typed = `/tsai learn workspace=${W} range=last 3 dayz signals=${T}:temperature name="Pump 3"`;
    const fixed = correctedCommand(typed, 'range="yesterday 9am to 5pm"');
    expect(fixed).toBe(
      `/tsai learn workspace=${W} range="yesterday 9am to 5pm" signals=${T}:temperature name="Pump 3"`,
    );
    const parsed = parseCommand(fixed!.replace(/^\/tsai /, ''));
    expect(parsed.ok).toBe(true);
  });

  it('replaces a quoted value, and an alias of the key', () => {
    expect(
      correctedCommand(
        `/tsai learn workspace=${W} signals=${T} time="last fortnightly"`,
        'range="last 3 days"',
      ),
    ).toBe(`/tsai learn workspace=${W} signals=${T} range="last 3 days"`);
  });

  it('adds the option when it was not typed (a channel default filled it)', () => {
    expect(correctedCommand(`/tsai learn signals=${T}`, 'range="last 3 days"')).toBe(
      `/tsai learn signals=${T} range="last 3 days"`,
    );
  });

  it('keeps the way it was typed: after @tsai in a thread, bare in the Messages tab', () => {
    expect(correctedCommand(`@tsai learn signals=${T} range=never`, 'range="last 3 days"')).toBe(
      `@tsai learn signals=${T} range="last 3 days"`,
    );
    expect(correctedCommand(`learn signals=${T}`, 'range="last 3 days"')).toBe(
      `learn signals=${T} range="last 3 days"`,
    );
  });

  it('gives nothing for a whole command or text it cannot split', () => {
    expect(correctedCommand('/tsai learn x', '/tsai help learn')).toBeUndefined();
    expect(correctedCommand('/tsai learn name="open', 'range="last 3 days"')).toBeUndefined();
    expect(correctedCommand('/tsai nonsense range=x', 'range="last 3 days"')).toBeUndefined();
  });
});
