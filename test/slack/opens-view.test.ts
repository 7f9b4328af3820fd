import { describe, expect, it } from 'vitest';
import { EXAMPLE_IDS as X } from '../../src/core/ids.js';
import { opensForm } from '../../src/slack/command/listener.js';
import { opensView } from '../../src/slack/runtime/dispatch.js';
import type { Job } from '../../src/slack/runtime/jobs.js';

const command = (text: string) =>
  ({ kind: 'command', command: { text, trigger_id: 't', user_id: 'U1', channel_id: 'C1' } }) as Job;

describe('which follow-ups open a view, and so run beside the acks', () => {
  it('a command missing what it needs, and connect, open a form; a whole command, help or a refusal do not', () => {
    expect(opensForm('learn')).toBe(true);
    expect(opensForm(`relearn ${X.model}`)).toBe(true);
    expect(opensForm('connect')).toBe(true);
    expect(opensForm(`learn workspace=${X.workspace} signals=${X.signal} range="last week"`)).toBe(false);
    expect(opensForm(`workspace show ${X.workspace}`)).toBe(false);
    expect(opensForm('help')).toBe(false);
    expect(opensForm('lern')).toBe(false);
    expect(opensForm('whoami')).toBe(false);
  });

  it('the job kinds say so themselves: shortcuts, reopen, next steps, reject (not approve)', () => {
    expect(opensView(command('learn'))).toBe(true);
    expect(opensView(command(`workspace show ${X.workspace}`))).toBe(false);
    const click = { kind: 'approval-click', requestId: 'r', userId: 'U1', triggerId: 't' } as const;
    expect(opensView({ ...click, action: 'reject' })).toBe(true);
    expect(opensView({ ...click, action: 'approve' })).toBe(false);
    expect(opensView({ kind: 'home-opened', userId: 'U1', teamId: 'T1' })).toBe(false);
  });
});
