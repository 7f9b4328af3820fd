/**
 * What the schedules feature hands on after its acknowledgements: an approver's click on a schedule's
 * card; a click on a completed flow's "Run this every …", and that modal sent.
 */
export type ScheduleJob =
  | { kind: 'schedule-repeat-open'; userId: string; triggerId: string; flowId: string; channelId?: string }
  | {
      kind: 'schedule-repeat-create';
      userId: string;
      teamId?: string;
      channelId: string;
      /** The thread the repeated flow was asked in: the schedule is said there. */
      threadTs?: string;
      whenText: string;
      commandText: string;
    }
  | {
      kind: 'schedule-decision';
      decision: 'approve' | 'reject' | 'revoke';
      scheduleId: string;
      userId: string;
      teamId?: string;
      channelId?: string;
      messageTs?: string;
      responseUrl?: string;
    };
