import { describe, expect, it } from 'vitest';
import { defaultName, NEUTRAL_NAME, personName } from '../../src/core/names.js';

const NOW = new Date('2026-11-22T09:14:05.123Z');

describe('the names the bot gives what people create', () => {
  it('carry the display name, with or without its @', () => {
    expect(defaultName('learn', 'alice', NOW)).toBe('learn by @alice 2026-11-22 09:14Z');
    expect(defaultName('eval', '@Alice Requester', NOW)).toBe('eval by @Alice Requester 2026-11-22 09:14Z');
  });

  it('never a Slack user ID: an unknown or ID-like name gives the neutral word', () => {
    for (const missing of [undefined, '', '  ', 'U0ALICE', '@U0ALICE', 'W012ABCDEF'])
      expect(personName(missing)).toBe(NEUTRAL_NAME);
    expect(defaultName('learn', undefined, NOW)).toBe(`learn by ${NEUTRAL_NAME} 2026-11-22 09:14Z`);
    expect(defaultName('learn', 'U0ALICE', NOW)).not.toContain('U0ALICE');
  });
});
