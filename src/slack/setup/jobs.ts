/** What the setup feature hands on: a Set up button clicked (the form opens with its trigger). */
export type SetupJob = {
  kind: 'setup-open';
  userId: string;
  teamId?: string;
  triggerId: string;
  channelId?: string;
  responseUrl?: string;
};
