import type { Store } from '../../store/index.js';
import type { AuditLog } from '../audit.js';
import type { TenantVault } from './vault.js';

/** Why a tenant's installation ended: Slack's `app_uninstalled`, or `tokens_revoked` naming its bot. */
export type RemovalCause = 'app_uninstalled' | 'tokens_revoked';

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
