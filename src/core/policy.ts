import type { Store } from '../store/index.js';
import { AuditLog } from './audit.js';
import { type Now, nowMs } from './clock.js';
import { type ExpandGroup, Membership } from './principals.js';

export interface PolicyConfig {
  /** User (U…/W…) and user-group (S…) IDs allowed to run mutating commands; empty: everyone. */
  operators?: readonly string[];
  /** Channels where the bot acts; empty: all. */
  allowedChannels?: readonly string[];
  groupCacheMs?: number;
}

export interface PolicyDeps {
  store: Store;
  config: PolicyConfig;
  expandGroup: ExpandGroup;
  now?: Now;
  onGroupError?: (groupId: string, err: unknown) => void;
  /** The runner's audit writer, which records every refusal; absent: one over `store`. */
  audit?: AuditLog;
}

export interface AccessRequest {
  userId: string;
  teamId?: string;
  channelId: string;
  /** What is attempted, e.g. `workspace.create`, `live.start`, `help`. */
  operation: string;
  /** Mutating operations need an operator; read-only ones and help are open to everyone. */
  mutating: boolean;
  params?: Record<string, unknown>;
  /** The surface of the gate that asked (core/gate/surfaces.ts), which a refusal's audit line names. */
  via?: string;
}

export type AccessOutcome =
  | { allowed: true }
  | {
      allowed: false;
      reason: 'channel-not-allowed' | 'not-operator';
      /** Plain sentence without mentions; the Slack layer adds `askUsers`/`askGroups`/`allowedChannels`. */
      message: string;
      askUsers: string[];
      askGroups: string[];
      allowedChannels: string[];
    };

/** Who may do what: the bot acts with one service account, so it enforces this itself. */
export class AccessPolicy {
  private readonly operators: Membership;
  private readonly channels: readonly string[];
  private readonly audit: AuditLog;

  constructor(private readonly deps: PolicyDeps) {
    this.audit = deps.audit ?? new AuditLog(deps.store);
    this.operators = new Membership(deps.config.operators ?? [], deps.expandGroup, {
      cacheMs: deps.config.groupCacheMs,
      now: deps.now,
      onGroupError: deps.onGroupError,
    });
    this.channels = deps.config.allowedChannels ?? [];
  }

  isChannelAllowed(channelId: string): boolean {
    return this.channels.length === 0 || this.channels.includes(channelId);
  }

  async isOperator(userId: string): Promise<boolean> {
    return this.operators.isEmpty || this.operators.has(userId);
  }

  /** Allows or refuses; every refusal is written to the audit log. */
  async check(req: AccessRequest): Promise<AccessOutcome> {
    let outcome: AccessOutcome = { allowed: true };
    const base = {
      askUsers: [...this.operators.users],
      askGroups: [...this.operators.groups],
      allowedChannels: [...this.channels],
    };
    if (!this.isChannelAllowed(req.channelId)) {
      outcome = {
        allowed: false,
        reason: 'channel-not-allowed',
        message: 'The bot does not act in this channel. Use one of the allowed channels.',
        ...base,
      };
    } else if (req.mutating && !(await this.isOperator(req.userId))) {
      outcome = {
        allowed: false,
        reason: 'not-operator',
        message: `You are not an operator, so you cannot run ${req.operation}. Ask an operator to run it or to add you.`,
        ...base,
      };
    }
    if (!outcome.allowed) {
      await this.audit.write([
        {
          at: nowMs(this.deps.now),
          userId: req.userId,
          teamId: req.teamId,
          channelId: req.channelId,
          operation: 'policy.refused',
          params: { operation: req.operation, ...(req.via ? { via: req.via } : {}), ...(req.params ?? {}) },
          outcome: 'refused',
          error: outcome.reason,
        },
      ]);
    }
    return outcome;
  }
}

export function createPolicy(deps: PolicyDeps): AccessPolicy {
  return new AccessPolicy(deps);
}
