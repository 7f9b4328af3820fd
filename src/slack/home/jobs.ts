/** What the Home hands on after its acknowledgements. */
export type HomeJob =
  /** The user opened the app's Home tab; `hash`: of the view Slack shows them now. */
  | { kind: 'home-opened'; userId: string; teamId: string; hash?: string }
  /** Approve or Reject in the Home tab: no response_url, no channel. */
  | {
      kind: 'home-decision';
      action: 'approve' | 'reject';
      requestId: string;
      userId: string;
      teamId?: string;
      triggerId: string;
    };
