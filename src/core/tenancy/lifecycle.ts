import type { Store } from '../../store/index.js';
import type { AuditLog } from '../audit.js';
import type { TenantVault } from './vault.js';

/** Why a tenant's installation ended: Slack's `app_uninstalled`, or `tokens_revoked` naming its bot. */
export type RemovalCause = 'app_uninstalled' | 'tokens_revoked';

/** A removal as Slack told it: which bots it names, and when Slack made it. */
export interface Removal {
  cause: RemovalCause;
  /** The bot users it is for (`tokens_revoked`'s `tokens.bot`; `app_uninstalled`'s installation's bot). */
  botUserIds: readonly string[];
  /** When Slack made the event (`event_time`), in epoch seconds; absent when it did not say. */
  eventTime?: number;
}

/** The installation a tenant has now, as far as a removal is compared with it. */
export interface InstalledNow {
  botUserId: string;
  /** When the bot kept it (epoch ms, the machine's clock); absent on installations kept before it was recorded. */
  installedAt?: number;
}

/**
 * Why a removal does not concern the installation kept now, or undefined when it does. Slack delivers
 * `app_uninstalled` and `tokens_revoked` at least once and retries them, so one made for an earlier
 * installation may arrive after the app was installed again: it names a bot user the installation does
 * not have (a reinstall keeps the bot user, so that alone does not tell), or it was made before the
 * installation was kept (compared by the second, as Slack says the time: the same second counts as after,
 * since a removal made then cannot be told from one after it).
 */
export function staleRemoval(now: InstalledNow | undefined, r: Removal): string | undefined {
  if (!now) return undefined;
  if (r.botUserIds.length > 0 && !r.botUserIds.includes(now.botUserId))
    return `it names bot ${r.botUserIds.join(', ')}, and the installation kept now is bot ${now.botUserId}`;
  if (
    r.eventTime !== undefined &&
    now.installedAt !== undefined &&
    r.eventTime < Math.floor(now.installedAt / 1000)
  )
    return `it was made at ${new Date(r.eventTime * 1000).toISOString()}, before the installation kept now (${new Date(now.installedAt).toISOString()})`;
  return undefined;
}

/** What a removal did, for its log line. */
export interface Removed {
  installation: boolean;
  serviceAccount: boolean;
  peopleTokens: number;
  schedulesPaused: number;
}

/** Why a removed tenant's schedules are paused, as `/tsai schedules` says it after a reinstall. */
export const PAUSED_BY_REMOVAL =
  'the app was removed from this Slack workspace; once it is installed again and connected to the service (`/tsai setup`), resume it';

export interface TenantLifecycleOptions {
  store: Pick<Store, 'deleteTeamPersonTokens' | 'listSchedules' | 'setScheduleStatus'>;
  vault: TenantVault;
  audit: AuditLog;
  now: () => Date;
}

/**
 * What happens when a tenant (a workspace, or an organisation installed org-wide) installs the app and
 * when it removes it. Removing takes every secret of the tenant at once: its bot token, its service
 * account, and the tokens its people connected; its schedules are paused, since nothing could run them.
 * The rest of what it did (followed flows, approval requests, the audit log, the catalog of names) stays
 * in the store, readable by nobody outside the tenant, until retention deletes it (TSAI_RETAIN_*), so a
 * workspace that reinstalls by mistake finds its history and its schedules again (docs/install.md).
 */
export class TenantLifecycle {
  constructor(private readonly o: TenantLifecycleOptions) {}

  /** An installation was kept: audited as done by whoever installed it. */
  async installed(tenant: string, by: string | undefined, what: Record<string, unknown>): Promise<void> {
    await this.o.audit.writeSurely({
      at: this.o.now().getTime(),
      userId: by ?? 'slack',
      teamId: tenant,
      operation: 'app.installed',
      params: what,
      outcome: 'ok',
    });
  }

  /** The app was removed from the tenant: its secrets go, its schedules pause; audited. */
  async removed(tenant: string, cause: RemovalCause): Promise<Removed> {
    const at = this.o.now().getTime();
    const [installation, serviceAccount, peopleTokens] = await Promise.all([
      this.o.vault.forget(tenant, 'installation'),
      this.o.vault.forget(tenant, 'service-account'),
      this.o.store.deleteTeamPersonTokens(tenant),
    ]);
    let schedulesPaused = 0;
    for (const s of await this.o.store.listSchedules({
      teamId: tenant,
      statuses: ['active', 'awaiting-approval'],
    })) {
      const paused = await this.o.store.setScheduleStatus(s.id, {
        status: 'paused',
        reason: PAUSED_BY_REMOVAL,
        by: 'slack',
        at,
        nextRunAt: null,
        from: ['active'],
      });
      if (paused) schedulesPaused++;
    }
    const removed = { installation, serviceAccount, peopleTokens, schedulesPaused };
    // Slack tells a removal twice (tokens_revoked, app_uninstalled): the second finds nothing left.
    if (!installation && !serviceAccount && peopleTokens === 0 && schedulesPaused === 0) return removed;
    await this.o.audit.writeSurely({
      at,
      userId: 'slack',
      teamId: tenant,
      operation: 'app.removed',
      params: { cause, ...removed },
      outcome: 'ok',
    });
    return removed;
  }
}
