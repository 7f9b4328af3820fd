/**
 * A message that asks the bot something, as its acknowledgement read it: the bot mentioned in a channel or
 * a thread (`mention`), or a message in the bot's Messages tab (`direct-message`).
 */
export type MessageJob = (MessageAsking & { kind: 'mention' }) | (MessageAsking & { kind: 'direct-message' });

interface MessageAsking {
  /** The command it asks, the bot's mention taken out (Slack's entities still escaped). */
  text: string;
  userId: string;
  teamId?: string;
  channelId: string;
  /** The message's own `ts`: the thread its answers start when it is not in one already. */
  ts: string;
  /** The thread it is a reply in. */
  threadTs?: string;
  /** An edit of the message (`edited.ts`): read only when its first wording was refused. */
  editedTs?: string;
}
