import type { TimeRange } from '../../time/index.js';
import type { OutputArg, SignalRef } from '../grammar/types.js';

/**
 * Fully resolved operation requests: IDs checked, time ranges parsed to exact instants, names
 * defaulted, each shaped by its registry entry. The command path and the modals both produce these and
 * hand them to `execute`.
 */
export type ResolvedData =
  | { kind: 'inline'; signals: SignalRef[]; ranges: TimeRange[]; dataspecName: string }
  | { kind: 'dataspec'; dataspecId: string };

/** Where ANOMALYEVAL writes its outputs: nothing in it needs resolving, so it is the parsed argument as is. */
export type ResolvedOutput = OutputArg;

/** Who asks, where and when: what resolving a command needs besides its text. */
export interface RequestContext {
  /** The person's display name, for default names (absent: unknown; a neutral word stands in). */
  userName?: string;
  /** IANA zone in which the user's time ranges are read and echoed. */
  timeZone: string;
  now: Date;
  /** The user's Slack locale ("en-GB"): the day/month order of numeric dates. Absent: unknown. */
  locale?: string;
}
