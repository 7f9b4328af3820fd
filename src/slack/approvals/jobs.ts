/** What the approvals hand on after their acknowledgements. */
export type ApprovalJob =
  | {
      kind: 'approval-click';
      action: 'approve' | 'reject' | 'retry';
      requestId: string;
      userId: string;
      teamId?: string;
      channelId?: string;
      responseUrl?: string;
      triggerId: string;
    }
  | { kind: 'approval-reject'; requestId: string; userId: string; teamId?: string; reason?: string };
