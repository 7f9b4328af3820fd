/** A next-step button under a finished flow was clicked: open the form it names. */
export type FlowJob = {
  kind: 'flow-next';
  /** The form it opens (checked against the registry when the job runs). */
  step: string;
  /** The button's value: the IDs to fill in. */
  value: string;
  userId: string;
  teamId?: string;
  triggerId: string;
  channelId?: string;
  responseUrl?: string;
};
