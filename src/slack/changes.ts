import type { ApprovalRequest, TrackedFlow } from '../core/records.js';
import { errText } from '../log.js';
import type { Bot } from './bot.js';

/**
 * What changed for whom, announced once by the feature that changed it (a request filed or decided, a
 * flow ended, an identity connected); the features that show something of it (the Home) subscribe. So a
 * feature that changes things never calls the ones that show them, and none calls another in a circle.
 */
export interface Change {
  teamId: string | null | undefined;
  /** People concerned: a requester, a flow's starter. */
  userIds?: readonly (string | null | undefined)[];
  /** A request whose approvers see what waits for approval. */
  approvers?: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>;
  /** A flow whose end prompted this: what shows it waits until the store shows it ended. */
  flowEnded?: string;
  /** The status it ended in (COMPLETED, FAILED…), told before the store shows it. */
  flowStatus?: string;
  /** A request filed or decided (what it is now is read from the store). */
  requestId?: string;
}

type Subscriber = (bot: Bot, change: Change) => void;

const subscribers: Subscriber[] = [];

/** Be told of every change; a subscriber must neither throw nor wait (it is called in line). */
export function onChange(subscriber: Subscriber): void {
  if (!subscribers.includes(subscriber)) subscribers.push(subscriber);
}

/** Tells every subscriber; never throws, so what changed is never held up by who shows it. */
export function announceChange(bot: Bot, change: Change): void {
  for (const s of subscribers) {
    try {
      s(bot, change);
    } catch (e) {
      bot.logger.warn({ err: errText(e) }, 'a change subscriber failed');
    }
  }
}

/** Who an approval request concerns: its requester and its approvers. */
export function requestChange(r: ApprovalRequest): Change {
  return { teamId: r.teamId, userIds: [r.requesterId], approvers: r, requestId: r.id };
}

/** Who a flow's end concerns: its requester. */
export function flowChange(f: TrackedFlow): Change {
  return { teamId: f.teamId, userIds: [f.requesterId], flowEnded: f.flowId, flowStatus: f.status };
}
