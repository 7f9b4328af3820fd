import type { WriteHealth, WriteHealthSignal } from './health.js';
import * as approvals from './queries/approvals.js';
import * as audit from './queries/audit.js';
import * as catalog from './queries/catalog.js';
import * as defaults from './queries/channel-defaults.js';
import * as holds from './queries/follow-up-holds.js';
import * as submissions from './queries/form-submissions.js';
import * as gauges from './queries/gauges.js';
import * as tokens from './queries/person-tokens.js';
import * as seen from './queries/requests-seen.js';
import * as schedules from './queries/schedules.js';
import * as state from './queries/state.js';
import * as steps from './queries/step-executions.js';
import * as tenants from './queries/tenant-secrets.js';
import * as flows from './queries/tracked-flows.js';
import type {
  NewSchedule,
  ScheduleQuery,
  ScheduleRunQuery,
  ScheduleStatusChange,
  ScheduleStore,
} from './schedules.js';
import type { SqlEngine } from './sql.js';
import type { NewStepExecution, StepExecutionPatch } from './step-types.js';
import type {
  ApprovalQuery,
  AuditQuery,
  AuditResult,
  CatalogKind,
  CatalogLinks,
  CatalogQuery,
  CatalogUpsert,
  ChannelDefaults,
  DecideInput,
  ExecutionOutcome,
  FlowAnnouncement,
  FlowKey,
  HeldFollowUp,
  NewApprovalRequest,
  NewAuditEntry,
  NewTrackedFlow,
  PersonToken,
  SealedSecret,
  Store,
  TenantSecret,
  TenantSecretKind,
  TrackedFlowPatch,
  TrackedFlowQuery,
  UserChannelsQuery,
} from './types.js';

/**
 * The Store, the same on every engine: each method runs its aggregate's query. The methods hand back
 * the engine's promise as it is (no async wrapper), so a SQLite call costs no more turns than the
 * synchronous work itself.
 */
export class SqlStore implements Store {
  readonly kind: 'sqlite' | 'postgres';

  protected constructor(
    private readonly engine: SqlEngine,
    private readonly health: WriteHealthSignal,
  ) {
    this.kind = engine.kind;
  }

  get writeHealth(): WriteHealth {
    return this.health.current;
  }
  watchWrites(listener: (h: WriteHealth) => void) {
    return this.health.watch(listener);
  }

  operatorFigures() {
    return this.engine.exec(gauges.operatorFigures());
  }
  createApproval(input: NewApprovalRequest) {
    return this.engine.exec(approvals.createApproval(input));
  }
  getApproval(id: string) {
    return this.engine.exec(approvals.getApproval(id));
  }
  listApprovals(query: ApprovalQuery = {}) {
    return this.engine.exec(approvals.listApprovals(query));
  }
  setApprovalMessage(id: string, channelId: string, messageTs: string) {
    return this.engine.exec(approvals.setApprovalMessage(id, channelId, messageTs));
  }
  decideApproval(input: DecideInput) {
    return this.engine.exec(approvals.decideApproval(input));
  }
  claimRetry(id: string, by: string, at: number) {
    return this.engine.exec(approvals.claimRetry(id, by, at));
  }
  recordExecution(id: string, outcome: ExecutionOutcome, at: number) {
    return this.engine.exec(approvals.recordExecution(id, outcome, at));
  }
  expireDue(now: number) {
    return this.engine.exec(approvals.expireDue(now));
  }
  markInterrupted(claimedBefore: number, at: number) {
    return this.engine.exec(approvals.markInterrupted(claimedBefore, at));
  }
  pruneApprovals(before: number, limit: number) {
    return this.engine.exec(approvals.pruneApprovals(before, limit));
  }

  appendAudit(entry: NewAuditEntry) {
    return this.engine.exec(audit.appendAudit(entry));
  }
  completeAudit(id: number, result: AuditResult) {
    return this.engine.exec(audit.completeAudit(id, result));
  }
  listAudit(query: AuditQuery = {}) {
    return this.engine.exec(audit.listAudit(query));
  }
  listUserChannels(query: UserChannelsQuery) {
    return this.engine.exec(audit.listUserChannels(query));
  }
  pruneAudit(before: number, limit: number) {
    return this.engine.exec(audit.pruneAudit(before, limit));
  }

  getChannelDefaults(channelId: string) {
    return this.engine.exec(defaults.getChannelDefaults(channelId));
  }
  setChannelDefaults(channelId: string, values: ChannelDefaults, by: string, at: number) {
    return this.engine.exec(defaults.setChannelDefaults(channelId, values, by, at));
  }
  clearChannelDefaults(channelId: string) {
    return this.engine.exec(defaults.clearChannelDefaults(channelId));
  }

  upsertCatalog(teamId: string, entries: readonly CatalogUpsert[], at: number) {
    return this.engine.exec(catalog.upsertCatalog(teamId, entries, at));
  }
  getCatalogEntry(teamId: string, kind: CatalogKind, id: string) {
    return this.engine.exec(catalog.getCatalogEntry(teamId, kind, id));
  }
  searchCatalog(query: CatalogQuery) {
    return this.engine.exec(catalog.searchCatalog(query));
  }
  findCatalogByName(
    teamId: string,
    kind: CatalogKind,
    name: string,
    options: { links?: CatalogLinks; limit?: number } = {},
  ) {
    return this.engine.exec(catalog.findCatalogByName(teamId, kind, name, options));
  }
  forgetCatalogEntry(teamId: string, kind: CatalogKind, id: string, at: number) {
    return this.engine.exec(catalog.forgetCatalogEntry(teamId, kind, id, at));
  }
  pruneCatalog(before: number) {
    return this.engine.exec(catalog.pruneCatalog(before));
  }

  getState<T = unknown>(key: string) {
    return this.engine.exec(state.getState<T>(key));
  }
  setState(key: string, value: unknown, at: number) {
    return this.engine.exec(state.setState(key, value, at));
  }
  appliedMigrations() {
    return this.engine.exec(state.appliedMigrations());
  }

  trackFlow(flow: NewTrackedFlow) {
    return this.engine.exec(flows.trackFlow(flow));
  }
  getTrackedFlow(key: FlowKey) {
    return this.engine.exec(flows.getTrackedFlow(key));
  }
  setFlowAnnouncement(key: FlowKey, announcement: FlowAnnouncement) {
    return this.engine.exec(flows.setFlowAnnouncement(key, announcement));
  }
  claimDueFlows(o: { owner: string; now: number; leaseMs: number; limit: number }) {
    return this.engine.exec(flows.claimDueFlows(o));
  }
  updateTrackedFlow(key: FlowKey, owner: string, patch: TrackedFlowPatch) {
    return this.engine.exec(flows.updateTrackedFlow(key, owner, patch));
  }
  releaseFlowLeases(owner: string) {
    return this.engine.exec(flows.releaseFlowLeases(owner));
  }
  listTrackedFlows(query: TrackedFlowQuery = {}) {
    return this.engine.exec(flows.listTrackedFlows(query));
  }
  pruneTrackedFlows(before: number, limit: number) {
    return this.engine.exec(flows.pruneTrackedFlows(before, limit));
  }

  recordStepExecution(step: NewStepExecution) {
    return this.engine.exec(steps.recordStepExecution(step));
  }
  getStepExecution(executionId: string) {
    return this.engine.exec(steps.getStepExecution(executionId));
  }
  claimDueSteps(o: { owner: string; now: number; leaseMs: number; limit: number }) {
    return this.engine.exec(steps.claimDueSteps(o));
  }
  claimStep(o: { executionId: string; owner: string; now: number; leaseMs: number }) {
    return this.engine.exec(steps.claimStep(o));
  }
  updateStepExecution(executionId: string, owner: string, patch: StepExecutionPatch) {
    return this.engine.exec(steps.updateStepExecution(executionId, owner, patch));
  }
  releaseStepLeases(owner: string) {
    return this.engine.exec(steps.releaseStepLeases(owner));
  }
  listStepExecutions(query: { workflowExecutionId?: string; userId?: string; limit?: number } = {}) {
    return this.engine.exec(steps.listStepExecutions(query));
  }

  holdFollowUps(owner: string, leaseUntil: number, followUps: readonly HeldFollowUp[]) {
    return this.engine.exec(holds.holdFollowUps(owner, leaseUntil, followUps));
  }
  renewFollowUps(owner: string, leaseUntil: number) {
    return this.engine.exec(holds.renewFollowUps(owner, leaseUntil));
  }
  releaseFollowUps(owner: string, ids?: readonly string[]) {
    return this.engine.exec(holds.releaseFollowUps(owner, ids));
  }
  takeAbandonedFollowUps(now: number, limit: number) {
    return this.engine.exec(holds.takeAbandonedFollowUps(now, limit));
  }

  markRequestSeen(key: string, now: number, expiresAt: number) {
    return this.engine.exec(seen.markRequestSeen(key, now, expiresAt));
  }
  markRequestsSeen(keys: readonly string[], now: number, expiresAt: number) {
    return this.engine.exec(seen.markRequestsSeen(keys, now, expiresAt));
  }
  requestsSeen(keys: readonly string[], now: number) {
    return this.engine.exec(seen.requestsSeen(keys, now));
  }
  standingRequestMarks(now: number, limit: number) {
    return this.engine.exec(seen.standingRequestMarks(now, limit));
  }
  pruneRequestsSeen(now: number) {
    return this.engine.exec(seen.pruneRequestsSeen(now));
  }
  claimSubmission(key: string, now: number, expiresAt: number) {
    return this.engine.exec(submissions.claimSubmission(key, now, expiresAt));
  }
  recordSubmissionOutcome(key: string, outcome: unknown) {
    return this.engine.exec(submissions.recordSubmissionOutcome(key, outcome));
  }
  submissionOutcome<T = unknown>(key: string) {
    return this.engine.exec(submissions.submissionOutcome<T>(key));
  }

  getPersonToken(teamId: string, userId: string) {
    return this.engine.exec(tokens.getPersonToken(teamId, userId));
  }
  latestPersonTokenVersion(teamId: string, userId: string) {
    return this.engine.exec(tokens.latestPersonTokenVersion(teamId, userId));
  }
  savePersonToken(token: PersonToken) {
    return this.engine.exec(tokens.savePersonToken(token));
  }
  deletePersonToken(teamId: string, userId: string) {
    return this.engine.exec(tokens.deletePersonToken(teamId, userId));
  }
  resealPersonToken(
    o: { teamId: string; userId: string; fromVersion: number; version: number },
    sealed: SealedSecret,
  ) {
    return this.engine.exec(tokens.resealPersonToken(o, sealed));
  }
  deleteTeamPersonTokens(teamId: string) {
    return this.engine.exec(tokens.deleteTeamPersonTokens(teamId));
  }
  listTeamPersonTokens(teamId: string) {
    return this.engine.exec(tokens.listTeamPersonTokens(teamId));
  }

  getTenantSecret(tenant: string, kind: TenantSecretKind) {
    return this.engine.exec(tenants.getTenantSecret(tenant, kind));
  }
  latestTenantSecretVersion(tenant: string, kind: TenantSecretKind) {
    return this.engine.exec(tenants.latestTenantSecretVersion(tenant, kind));
  }
  saveTenantSecret(secret: TenantSecret) {
    return this.engine.exec(tenants.saveTenantSecret(secret));
  }
  deleteTenantSecret(tenant: string, kind: TenantSecretKind) {
    return this.engine.exec(tenants.deleteTenantSecret(tenant, kind));
  }
  resealTenantSecret(
    o: { tenant: string; kind: TenantSecretKind; fromVersion: number; version: number },
    sealed: SealedSecret,
  ) {
    return this.engine.exec(tenants.resealTenantSecret(o, sealed));
  }
  countTenantSecrets(kind: TenantSecretKind) {
    return this.engine.exec(tenants.countTenantSecrets(kind));
  }

  createSchedule(s: NewSchedule) {
    return this.engine.exec(schedules.createSchedule(s));
  }
  getSchedule(id: string) {
    return this.engine.exec(schedules.getSchedule(id));
  }
  listSchedules(q: ScheduleQuery = {}) {
    return this.engine.exec(schedules.listSchedules(q));
  }
  countSchedules(q: Omit<ScheduleQuery, 'limit' | 'offset'> = {}) {
    return this.engine.exec(schedules.countSchedules(q));
  }
  setScheduleStatus(id: string, change: ScheduleStatusChange) {
    return this.engine.exec(schedules.setScheduleStatus(id, change));
  }
  claimDueSchedules(o: { owner: string; now: number; leaseMs: number; limit: number }) {
    return this.engine.exec(schedules.claimDueSchedules(o));
  }
  claimScheduleRun(o: Parameters<ScheduleStore['claimScheduleRun']>[0]) {
    return this.engine.exec(schedules.claimScheduleRun(o));
  }
  finishScheduleRun(o: Parameters<ScheduleStore['finishScheduleRun']>[0]) {
    return this.engine.exec(schedules.finishScheduleRun(o));
  }
  advanceSchedule(o: Parameters<ScheduleStore['advanceSchedule']>[0]) {
    return this.engine.exec(schedules.advanceSchedule(o));
  }
  releaseScheduleLeases(owner: string) {
    return this.engine.exec(schedules.releaseScheduleLeases(owner));
  }
  listScheduleRuns(q: ScheduleRunQuery = {}) {
    return this.engine.exec(schedules.listScheduleRuns(q));
  }
  markInterruptedRuns(claimedBefore: number, at: number) {
    return this.engine.exec(schedules.markInterruptedRuns(claimedBefore, at));
  }

  close() {
    return this.engine.close();
  }
}
