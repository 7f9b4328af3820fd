import type { RemovalCause } from '../../core/tenancy/lifecycle.js';

/** What the installation feature hands on: the app was removed from a tenant (its envelope's `tenant`). */
export type InstallJob = { kind: 'install-removed'; cause: RemovalCause };
