/**
 * THE ONE LIST of the ways a person reaches the service through the bot. Each surface only decides how it
 * asks and how it answers; what it asks passes the one gate (`gate.ts`) as the person it acts for, at the
 * moment it acts. The matrix test (test/e2e/gate-matrix.test.ts) is generated from this list and the
 * guarantees' (`guarantees.ts`): a surface added here without its cases there fails the suite.
 */
export const SURFACES = [
  {
    id: 'command',
    asks: 'a typed `/tsai` command',
    actsFor: 'the person who typed it',
    when: 'at once',
  },
  {
    id: 'mention',
    asks: '`@tsai <command>` in a channel or a thread',
    actsFor: 'the person who wrote it',
    when: 'when Slack delivers the message',
  },
  {
    id: 'direct-message',
    asks: "a command typed in the bot's Messages tab",
    actsFor: 'the person who wrote it',
    when: 'when Slack delivers the message',
  },
  {
    id: 'assistant',
    asks: "a command typed in Slack's assistant pane, the channel the person views as its place",
    actsFor: 'the person who wrote it',
    when: 'when Slack delivers the message',
  },
  {
    id: 'form',
    asks: "an operation's form (a command missing its arguments, a shortcut, Reopen, a next step)",
    actsFor: 'the person who sent it',
    when: 'when it is sent',
  },
  {
    id: 'button',
    asks: "a button under a message: a request's Approve, Reject and Retry, a schedule's Approve, Reject and Revoke",
    actsFor: 'the person who clicked it',
    when: 'at the click',
  },
  {
    id: 'home',
    asks: "the App Home tab's Approve and Reject",
    actsFor: 'the person whose Home it is',
    when: 'at the click',
  },
  {
    id: 'schedule',
    asks: "a schedule's run, its command read again at its instant",
    actsFor: "the schedule's owner",
    when: 'at each planned run',
  },
  {
    id: 'workflow-step',
    asks: 'a Workflow Builder step',
    actsFor: 'the person Slack says ran the workflow (its `user_context`)',
    when: 'when the workflow reaches the step',
  },
  {
    id: 'setup',
    asks: '`/tsai setup` (or its button in a reply or the Home tab), which opens the service account form',
    actsFor: 'the person who asked',
    when: 'before the form opens',
  },
  {
    id: 'setup-form',
    asks: "the service account form sent: the tenant's service URL, account and token",
    actsFor: 'the person who sent it',
    when: 'when it is sent, before anything is kept',
  },
] as const;

export type SurfaceId = (typeof SURFACES)[number]['id'];
