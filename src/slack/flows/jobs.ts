/** A next-step button under a finished flow was clicked: open the form it names, or run its command. */
export type FlowJob = {
  kind: 'flow-next';
  /** The next step it takes (checked against the registry when the job runs): a form's name, `live-start`. */
  step: string;
  /** The button's value: the IDs to fill in. */
  value: string;
  userId: string;
  teamId?: string;
  triggerId: string;
  channelId?: string;
  responseUrl?: string;
};
