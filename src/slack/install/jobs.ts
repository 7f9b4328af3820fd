import type { RemovalCause } from '../../core/tenancy/lifecycle.js';

/**
 * What the installation feature hands on: the app was removed from a tenant (its envelope's `tenant`),
 * for the bot users Slack names, in an event Slack made at `eventTime` (epoch seconds).
 */
export type InstallJob = {
  kind: 'install-removed';
  cause: RemovalCause;
  botUserIds: string[];
  eventTime?: number;
};
