import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/core/grammar/parse.js';
import { didYouMean, editDistance, suggest } from '../../src/core/grammar/suggest.js';

describe('editDistance', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('lern', 'learn')).toBe(1);
    expect(editDistance('laern', 'learn')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('suggest', () => {
  const words = ['help', 'workspace', 'model', 'eval', 'live', 'learn', 'relearn', 'score', 'flow', 'flows'];

  it('offers the closest words, nearest first, at most three', () => {
    expect(suggest('lern', words)).toEqual(['learn']);
    expect(suggest('flwo', words)).toEqual(['flow']);
    expect(suggest('flowss', words)).toEqual(['flows', 'flow']);
    expect(suggest('LEARN ', ['learn', 'relearn'])).toEqual([]);
    expect(suggest('mode', ['model', 'modes', 'mod', 'made', 'node'])).toHaveLength(3);
  });

  it('offers nothing far from the word, and takes the start of a long word', () => {
    expect(suggest('frobnicate', words)).toEqual([]);
    expect(suggest('x', words)).toEqual([]);
    expect(suggest('work', words)).toEqual(['workspace']);
  });

  it('words the offer as one question', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['learn'])).toBe(' Did you mean `learn`?');
    expect(didYouMean(['flow', 'flows', 'live'])).toBe(' Did you mean `flow`, `flows` or `live`?');
  });
});

describe('a misspelt command is refused with the closest, and an example that works', () => {
  const refusal = (text: string) => {
    const out = parseCommand(text);
    if (out.ok || out.kind !== 'error') throw new Error(`not refused: ${text}`);
    return out;
  };

  it('a command word', () => {
    const out = refusal('lern workspace=1030000000000000001');
    expect(out.message).toMatch(/^`lern` is not a command\. Did you mean `learn`\? Commands: `help`/);
    expect(out.spec?.id).toBe('learn');
    expect(parseCommand(out.spec!.examples[0]!.replace(/^\/tsai /, '')).ok).toBe(true);
  });

  it('a subcommand', () => {
    const out = refusal('workspace craete "Pump station 9"');
    expect(out.message).toBe(
      '`craete` is not a `workspace` subcommand. Did you mean `create`? Use `create` or `show`.',
    );
    expect(out.spec?.id).toBe('workspace create');
  });

  it('a key of that command only', () => {
    const out = refusal('approvals workpsace=1030000000000000001');
    expect(out.message).toBe('`workpsace=` is not an option of `approvals`. It takes no options.');
    const learn = refusal('learn workspace=1030000000000000001 singals=1050000000000000001 range=yesterday');
    expect(learn.message).toMatch(
      /^`singals=` is not an option of `learn`\. Did you mean `signals=`\? It takes/,
    );
  });

  it('a help topic', () => {
    expect(refusal('help scroe').message).toMatch(/^There is no command `scroe`\. Did you mean `score`\?/);
  });

  it('never acts on the guess', () => {
    expect(parseCommand('lern workspace=1030000000000000001').ok).toBe(false);
  });
});
