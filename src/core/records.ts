/**
 * What the store keeps and the service answered, as the surfaces see it: the records a surface shows, and
 * the store itself for the composition and the follow-up machinery. Surfaces name these types through
 * core, never the store or the service client.
 */
export type { FlowResults } from '../api/index.js';
export type {
  ApprovalRequest,
  ApprovalStatus,
  AuditEntry,
  CatalogKind,
  FlowKey,
  FlowOrigin,
  Schedule,
  ScheduleRunOutcome,
  Store,
  TrackedFlow,
  WriteHealth,
} from '../store/index.js';
