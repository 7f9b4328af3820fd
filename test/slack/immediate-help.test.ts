import { describe, expect, it } from 'vitest';
import { immediateHelp } from '../../src/slack/command/listener.js';
import { helpMessage } from '../../src/slack/views/messages.js';

describe('help answered in the ack body', () => {
  it('answers help, help <command> and an empty command with the help message, ephemerally', () => {
    expect(immediateHelp('help')).toEqual({ response_type: 'ephemeral', ...helpMessage(undefined) });
    expect(immediateHelp('')).toEqual({ response_type: 'ephemeral', ...helpMessage(undefined) });
    expect(immediateHelp('  HELP learn ')).toEqual({ response_type: 'ephemeral', ...helpMessage('learn') });
  });

  it('leaves every other command to the full handler (after a bare ack)', () => {
    expect(immediateHelp('learn workspace=1030000000000000001')).toBeUndefined();
    expect(immediateHelp('helpful')).toBeUndefined();
    expect(immediateHelp('flow 1400000000000000001')).toBeUndefined();
  });
});
