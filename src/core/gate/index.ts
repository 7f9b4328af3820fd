export { adminRefusal, type SlackRights, type TenantInstall } from './admin.js';
export {
  type Principal,
  type SlackStanding,
  type Standing,
  singleTenant,
  type Tenancy,
  type Tenant,
  tenantPerInstallation,
} from './authenticate.js';
export { Gate, type GateDeps, type GateVerdict, type Passage } from './gate.js';
export { GUARANTEES, type GuaranteeId, guaranteeOf } from './guarantees.js';
export { MASKED_NOTE, maskCommandText, maskValues } from './mask.js';
export { SURFACES, type SurfaceId } from './surfaces.js';
export { type TeamRecords, teamRecords } from './team.js';
