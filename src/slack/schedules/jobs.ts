/** What the schedules feature hands on after its acknowledgements: an approver's click on a schedule's card. */
export type ScheduleJob = {
  kind: 'schedule-decision';
  decision: 'approve' | 'reject' | 'revoke';
  scheduleId: string;
  userId: string;
  teamId?: string;
  channelId?: string;
  messageTs?: string;
  responseUrl?: string;
};
