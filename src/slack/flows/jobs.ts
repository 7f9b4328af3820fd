/** A next-step button under a finished flow was clicked: open the form it names. */
export type FlowJob = {
  kind: 'flow-next';
  step: 'score' | 'relearn';
  /** The button's value: the IDs to fill in. */
  value: string;
  userId: string;
  teamId?: string;
  triggerId: string;
  channelId?: string;
  responseUrl?: string;
};
