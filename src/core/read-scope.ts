import type { ApprovalRequest } from '../store/index.js';

/**
 * Who may read what, the same whichever surface asks (a command, the Home tab). The bot serves every Slack
 * workspace (team) it is installed in with one service account, so the rules are the bot's own:
 * - a record of a team (a followed flow, an approval request) is shown only within that team; from
 *   another it is "not found", worded as for an ID nobody knows;
 * - pending approval requests are shown to whoever filed them and to whoever may decide them.
 * The audit log is for the bot's approvers only, and of their team (core/approvals/workflow.ts, `auditTrail`).
 */
export interface Viewer {
  userId: string;
  /** The viewer's Slack team; records of another team are not theirs to see. */
  teamId?: string;
}

/** Whether a record of `recordTeam` may be shown to `viewer`; a record of no team (kept from before teams were recorded) may. */
export function withinTeam(recordTeam: string | null | undefined, viewer: Viewer): boolean {
  return !recordTeam || recordTeam === viewer.teamId;
}

/** The pending requests `viewer` may see: of their team, and theirs or theirs to decide. */
export async function requestsVisibleTo(
  requests: readonly ApprovalRequest[],
  viewer: Viewer,
  mayDecide: (request: ApprovalRequest) => Promise<boolean>,
): Promise<ApprovalRequest[]> {
  const visible: ApprovalRequest[] = [];
  for (const r of requests) {
    if (!withinTeam(r.teamId, viewer)) continue;
    if (r.requesterId === viewer.userId || (await mayDecide(r))) visible.push(r);
  }
  return visible;
}
