/**
 * Versioned schema migrations, applied in order at start-up. Never edit a released migration:
 * add a new version. Each dialect gets its own SQL; column names and meanings are identical.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

const approvals = (ms: string) => `
CREATE TABLE approvals (
  id TEXT PRIMARY KEY,
  action TEXT NOT NULL,
  model_id TEXT NOT NULL,
  assessment_id TEXT,
  reason TEXT,
  requester_id TEXT NOT NULL,
  team_id TEXT,
  origin_channel_id TEXT NOT NULL,
  approvals_channel_id TEXT NOT NULL,
  message_ts TEXT,
  status TEXT NOT NULL,
  created_at ${ms} NOT NULL,
  expires_at ${ms} NOT NULL,
  decided_by TEXT,
  decided_at ${ms},
  reject_reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_attempt_by TEXT,
  last_attempt_at ${ms},
  flow_id TEXT,
  flow_status TEXT,
  error TEXT,
  finished_at ${ms}
);
CREATE INDEX approvals_status_expires ON approvals (status, expires_at);
CREATE TABLE channel_defaults (
  channel_id TEXT PRIMARY KEY,
  workspace TEXT,
  datastream TEXT,
  model TEXT,
  assessment TEXT,
  entities TEXT,
  updated_by TEXT NOT NULL,
  updated_at ${ms} NOT NULL
);
CREATE TABLE bot_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at ${ms} NOT NULL
);
`;

const audit = (idColumn: string, ms: string) => `
CREATE TABLE audit_log (
  id ${idColumn},
  at ${ms} NOT NULL,
  user_id TEXT NOT NULL,
  team_id TEXT,
  channel_id TEXT,
  operation TEXT NOT NULL,
  params TEXT NOT NULL,
  outcome TEXT NOT NULL,
  flow_id TEXT,
  flow_status TEXT,
  error TEXT,
  request_id TEXT
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_channel ON audit_log (channel_id, at);
`;

// Names and IDs are compared byte-wise (PostgreSQL: COLLATE "C", SQLite's default), so a prefix is an
// index range in both. The partial link indexes serve narrowing, e.g. the models of one workspace.
const catalog = (ms: string, bytewise: string) => `
CREATE TABLE catalog_entries (
  team_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT${bytewise} NOT NULL,
  name TEXT,
  name_key TEXT${bytewise},
  name_source TEXT,
  source TEXT NOT NULL,
  workspace_id TEXT,
  assessment_id TEXT,
  model_id TEXT,
  first_seen_at ${ms} NOT NULL,
  last_used_at ${ms} NOT NULL,
  missing_at ${ms},
  PRIMARY KEY (team_id, kind, id)
);
CREATE INDEX catalog_recent ON catalog_entries (team_id, kind, last_used_at DESC, id);
CREATE INDEX catalog_name ON catalog_entries (team_id, kind, name_key, last_used_at DESC, id)
  WHERE name_key IS NOT NULL;
CREATE INDEX catalog_workspace ON catalog_entries (team_id, kind, workspace_id, last_used_at DESC)
  WHERE workspace_id IS NOT NULL;
CREATE INDEX catalog_assessment ON catalog_entries (team_id, kind, assessment_id, last_used_at DESC)
  WHERE assessment_id IS NOT NULL;
CREATE INDEX catalog_model ON catalog_entries (team_id, kind, model_id, last_used_at DESC)
  WHERE model_id IS NOT NULL;
CREATE INDEX catalog_last_used ON catalog_entries (last_used_at);
`;

/** The followed flows' table under `name`: keyed by the service's flow ID alone (version 4), or by tenant and ID. */
const trackedFlowsTable = (
  name: string,
  ms: string,
  key: { flowId: string; teamId: string; primaryKey?: string; added?: readonly string[] },
) => `
CREATE TABLE ${name} (
  flow_id ${key.flowId},
  flow_type TEXT NOT NULL,
  team_id ${key.teamId},
  channel_id TEXT NOT NULL,
  requester_id TEXT NOT NULL,
  origin TEXT NOT NULL,
  asked TEXT NOT NULL,
  request TEXT NOT NULL,
  approval_id TEXT,
  announcement TEXT,
  status TEXT NOT NULL,
  status_changed_at ${ms} NOT NULL,
  shown_status TEXT,
  show_not_before ${ms},
  created_at ${ms} NOT NULL,
  polls INTEGER NOT NULL DEFAULT 0,
  next_poll_at ${ms} NOT NULL,
  lease_owner TEXT,
  lease_until ${ms},
  finished_at ${ms},
  end_reason TEXT,
  result TEXT,
  failure TEXT,
  notified_at ${ms}${[...(key.added ?? []), ...(key.primaryKey ? [key.primaryKey] : [])].map((l) => `,\n  ${l}`).join('')}
);`;

const trackedFlowsIndexes = `
CREATE INDEX tracked_flows_due ON tracked_flows (next_poll_at) WHERE finished_at IS NULL;
CREATE INDEX tracked_flows_channel ON tracked_flows (channel_id, created_at);
CREATE INDEX tracked_flows_requester ON tracked_flows (requester_id, created_at);
`;

/** The flows a Workflow Builder step or an approval's card waits on, by their request. */
const trackedFlowsByApproval = `CREATE INDEX tracked_flows_approval ON tracked_flows (approval_id) WHERE approval_id IS NOT NULL;`;

const trackedFlows = (ms: string) =>
  trackedFlowsTable('tracked_flows', ms, { flowId: 'TEXT PRIMARY KEY', teamId: 'TEXT' }) +
  trackedFlowsIndexes;

// What each process has in hand for somebody: kept only while it is in hand, so another replica can tell
// that person when the process dies (its hold is no longer renewed).
const followUpsHeld = (ms: string) => `
CREATE TABLE follow_ups_held (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  lease_until ${ms} NOT NULL,
  notice TEXT NOT NULL,
  held_at ${ms} NOT NULL
);
CREATE INDEX follow_ups_held_owner ON follow_ups_held (owner);
CREATE INDEX follow_ups_held_lease ON follow_ups_held (lease_until);
`;

// The App Home lists the channels a person uses, read from the audit log by user.
const auditByUser = `CREATE INDEX audit_log_user ON audit_log (team_id, user_id, at);`;

// Whose approvers decide a request: those of the service workspace it acts on (and the workspace's name
// when filed, for the card), or the bot's own when this is empty.
const approversWorkspace = `
ALTER TABLE approvals ADD COLUMN approvers_workspace_id TEXT;
ALTER TABLE approvals ADD COLUMN approvers_workspace_name TEXT;
`;

// Slack requests already acted on (an event's ID, a digest of a command or an interaction), kept until a
// retry or a replay could no longer arrive, so that every replica acts on each request once.
const requestsSeen = (ms: string) => `
CREATE TABLE requests_seen (
  key TEXT PRIMARY KEY,
  expires_at ${ms} NOT NULL
);
CREATE INDEX requests_seen_expires ON requests_seen (expires_at);
`;

// A form submission's key (its view and values) while Slack may send it again, and what it came to.
const formSubmissions = (ms: string) => `
CREATE TABLE form_submissions (
  key TEXT PRIMARY KEY,
  expires_at ${ms} NOT NULL,
  outcome TEXT
);
CREATE INDEX form_submissions_expires ON form_submissions (expires_at);
`;

// Each person's own service token, encrypted by the bot (AES-256-GCM) before it reaches the store: the
// ciphertext, its IV and tag (base64), and the ID of the key it is under; never the token itself.
const personTokens = (ms: string) => `
CREATE TABLE person_tokens (
  team_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  iv TEXT NOT NULL,
  tag TEXT NOT NULL,
  key_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  role TEXT,
  service_user TEXT,
  connected_at ${ms} NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
`;

// A channel's shifts (JSON: [{ start: "06:00", name?: "morning" }, …]), which its time ranges can name.
const channelShifts = `ALTER TABLE channel_defaults ADD COLUMN shifts TEXT;`;

// What the bot could not vouch for in a request's model when it was filed: 'unseen' (no lookup, flow or
// catalog read ever named it) or 'no-workspace' (seen, but the service never said its workspace). Such a
// request is decided by the strictest rule that could apply when workspaces have approvers of their own
// (approvers_strictest; core/approvals/workflow.ts).
const approvalModelDoubt = `
ALTER TABLE approvals ADD COLUMN model_doubt TEXT;
ALTER TABLE approvals ADD COLUMN approvers_strictest INTEGER;
`;

// The thread a live start or stop was asked from (a mention in a thread): where the request says it waits
// and where its requester is told the decision. Null for requests asked outside a thread.
const approvalOriginThread = `
ALTER TABLE approvals ADD COLUMN origin_thread_ts TEXT;
`;

// Each person's token row carries the version it was sealed with (inside its authenticated data), and
// person_token_versions the highest version ever given to that person, which only grows (a save, a
// re-seal and a delete each take the next): an older row put back is below it and is not read. Rows
// from before carry no version (0, sealed without their metadata) and are re-sealed when next read.
const personTokenVersions = (ms: string) => `
ALTER TABLE person_tokens ADD COLUMN version ${ms};
CREATE TABLE person_token_versions (
  team_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  version ${ms} NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
INSERT INTO person_token_versions (team_id, user_id, version) SELECT team_id, user_id, 0 FROM person_tokens;
`;

// Schedules, and one row per planned run keyed by (schedule, instant): inserting that row is the claim, so
// each planned run is run by one replica once. The partial index keeps the due scan to active schedules.
const schedules = (ms: string) => `
CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  team_id TEXT,
  channel_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  command TEXT NOT NULL,
  when_text TEXT NOT NULL,
  rule TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  status TEXT NOT NULL,
  status_reason TEXT,
  status_by TEXT,
  approval_id TEXT,
  created_at ${ms} NOT NULL,
  updated_at ${ms} NOT NULL,
  next_run_at ${ms},
  last_run_at ${ms},
  last_outcome TEXT,
  last_detail TEXT,
  lease_owner TEXT,
  lease_until ${ms}
);
CREATE INDEX schedules_due ON schedules (next_run_at) WHERE status = 'active';
CREATE INDEX schedules_channel ON schedules (channel_id, created_at);
CREATE INDEX schedules_owner ON schedules (team_id, owner_id, created_at);
CREATE INDEX schedules_approval ON schedules (approval_id) WHERE approval_id IS NOT NULL;
CREATE TABLE schedule_runs (
  schedule_id TEXT NOT NULL,
  planned_at ${ms} NOT NULL,
  claimed_by TEXT NOT NULL,
  claimed_at ${ms} NOT NULL,
  state TEXT NOT NULL,
  finished_at ${ms},
  flow_id TEXT,
  detail TEXT,
  PRIMARY KEY (schedule_id, planned_at)
);
CREATE INDEX schedule_runs_claimed ON schedule_runs (claimed_at) WHERE state = 'claimed';
CREATE INDEX schedule_runs_planned ON schedule_runs (planned_at);
`;

// Workflow Builder steps the bot runs, each until Slack took its one completion: what it waits for (a flow,
// an approval request), what Slack is told, and the lease of the process that has it in hand.
const stepExecutions = (ms: string) => `
CREATE TABLE step_executions (
  execution_id TEXT PRIMARY KEY,
  callback_id TEXT NOT NULL,
  workflow_execution_id TEXT,
  team_id TEXT,
  user_id TEXT NOT NULL,
  channel_id TEXT,
  state TEXT NOT NULL,
  flow_id TEXT,
  approval_id TEXT,
  completion TEXT,
  created_at ${ms} NOT NULL,
  lease_owner TEXT,
  lease_until ${ms},
  next_try_at ${ms},
  attempts INTEGER NOT NULL DEFAULT 0,
  completed_at ${ms}
);
CREATE INDEX step_executions_open ON step_executions (created_at) WHERE state <> 'done';
CREATE INDEX step_executions_workflow ON step_executions (workflow_execution_id, created_at);
${trackedFlowsByApproval}
`;

// Who decides a schedule of live starts or stops, kept with it as a request keeps its own: the approvers
// of its model's workspace (and its name when made), the strictest rule, or the bot's (all empty).
const scheduleApprovers = `
ALTER TABLE schedules ADD COLUMN approvers_workspace_id TEXT;
ALTER TABLE schedules ADD COLUMN approvers_workspace_name TEXT;
ALTER TABLE schedules ADD COLUMN approvers_strictest INTEGER;
ALTER TABLE schedules ADD COLUMN model_doubt TEXT;
`;

// The request a followed flow or a schedule came from, as W3C Trace Context (`traceparent`), when tracing
// was on: a flow's reads and a schedule's runs are traces of their own, linked to it, and a flow's end
// notice joins it.
const traceParents = `
ALTER TABLE tracked_flows ADD COLUMN trace_parent TEXT;
ALTER TABLE schedules ADD COLUMN trace_parent TEXT;
`;

// What each tenant (an installation of the app: a workspace, or an organisation installed org-wide) keeps
// secret, encrypted by the bot before it gets here: its bot token, and its service account. `facts` is the
// row's JSON, bound into the ciphertext's authenticated data; tenant_secret_versions is the mark that only
// grows, as for people's tokens, so an older row put back is not read.
const tenantSecrets = (ms: string) => `
CREATE TABLE tenant_secrets (
  tenant TEXT NOT NULL,
  kind TEXT NOT NULL,
  facts TEXT NOT NULL,
  ciphertext TEXT NOT NULL,
  iv TEXT NOT NULL,
  tag TEXT NOT NULL,
  key_id TEXT NOT NULL,
  saved_at ${ms} NOT NULL,
  version ${ms} NOT NULL,
  PRIMARY KEY (tenant, kind)
);
CREATE TABLE tenant_secret_versions (
  tenant TEXT NOT NULL,
  kind TEXT NOT NULL,
  version ${ms} NOT NULL,
  PRIMARY KEY (tenant, kind)
);
`;

// A followed flow is the tenant's: two tenants' services may hand out the same flow ID, and each is a
// record of its own. The key becomes (team_id, flow_id), team_id '' for a flow kept without a team; the
// table is made again (SQLite cannot change a key), its rows and indexes as they were, and one more by
// flow ID alone: with one service for every team, `/tsai flow` asks whether any team followed that ID.
const FLOW_COLUMNS = [
  'flow_id',
  'flow_type',
  'team_id',
  'channel_id',
  'requester_id',
  'origin',
  'asked',
  'request',
  'approval_id',
  'announcement',
  'status',
  'status_changed_at',
  'shown_status',
  'show_not_before',
  'created_at',
  'polls',
  'next_poll_at',
  'lease_owner',
  'lease_until',
  'finished_at',
  'end_reason',
  'result',
  'failure',
  'notified_at',
  'trace_parent',
];
const trackedFlowsByTenant = (ms: string) => `${trackedFlowsTable('tracked_flows_by_tenant', ms, {
  flowId: 'TEXT NOT NULL',
  teamId: "TEXT NOT NULL DEFAULT ''",
  added: ['trace_parent TEXT'],
  primaryKey: 'PRIMARY KEY (team_id, flow_id)',
})}
INSERT INTO tracked_flows_by_tenant (${FLOW_COLUMNS.join(', ')})
  SELECT ${FLOW_COLUMNS.map((c) => (c === 'team_id' ? "COALESCE(team_id, '')" : c)).join(', ')} FROM tracked_flows;
DROP TABLE tracked_flows;
ALTER TABLE tracked_flows_by_tenant RENAME TO tracked_flows;
${trackedFlowsIndexes}${trackedFlowsByApproval}
CREATE INDEX tracked_flows_id ON tracked_flows (flow_id);
`;

// Each person's token is bound to the service URL it was checked against (beside the account it already
// names, and inside its authenticated data): it is sent nowhere else. Rows from before name none.
const personTokenUrl = `ALTER TABLE person_tokens ADD COLUMN service_url TEXT;`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'approvals, channel defaults, bot state',
    sqlite: approvals('INTEGER'),
    postgres: approvals('BIGINT'),
  },
  {
    version: 2,
    name: 'audit log',
    sqlite: audit('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER'),
    postgres: audit('BIGSERIAL PRIMARY KEY', 'BIGINT'),
  },
  {
    version: 3,
    name: 'catalog of known resources',
    sqlite: catalog('INTEGER', ''),
    postgres: catalog('BIGINT', ' COLLATE "C"'),
  },
  {
    version: 4,
    name: 'tracked flows',
    sqlite: trackedFlows('INTEGER'),
    postgres: trackedFlows('BIGINT'),
  },
  {
    version: 5,
    name: 'audit log by user',
    sqlite: auditByUser,
    postgres: auditByUser,
  },
  {
    version: 6,
    name: 'follow-ups held by each process',
    sqlite: followUpsHeld('INTEGER'),
    postgres: followUpsHeld('BIGINT'),
  },
  {
    version: 7,
    name: 'Slack requests seen',
    sqlite: requestsSeen('INTEGER'),
    postgres: requestsSeen('BIGINT'),
  },
  {
    version: 8,
    name: "people's own service tokens, encrypted",
    sqlite: personTokens('INTEGER'),
    postgres: personTokens('BIGINT'),
  },
  {
    version: 9,
    name: 'approvers per workspace',
    sqlite: approversWorkspace,
    postgres: approversWorkspace,
  },
  {
    version: 10,
    name: "channels' shifts",
    sqlite: channelShifts,
    postgres: channelShifts,
  },
  {
    version: 11,
    name: "what the bot could not vouch for in a request's model",
    sqlite: approvalModelDoubt,
    postgres: approvalModelDoubt,
  },
  {
    version: 12,
    name: "versions of people's tokens, which only grow",
    sqlite: personTokenVersions('INTEGER'),
    postgres: personTokenVersions('BIGINT'),
  },
  {
    version: 13,
    name: 'form submissions answered once',
    sqlite: formSubmissions('INTEGER'),
    postgres: formSubmissions('BIGINT'),
  },
  {
    version: 14,
    name: 'schedules and their planned runs',
    sqlite: schedules('INTEGER'),
    postgres: schedules('BIGINT'),
  },
  {
    version: 15,
    name: 'Workflow Builder step executions',
    sqlite: stepExecutions('INTEGER'),
    postgres: stepExecutions('BIGINT'),
  },
  {
    version: 16,
    name: 'the thread a live start or stop was asked from',
    sqlite: approvalOriginThread,
    postgres: approvalOriginThread,
  },
  {
    version: 17,
    name: "who decides a schedule's live starts or stops",
    sqlite: scheduleApprovers,
    postgres: scheduleApprovers,
  },
  {
    version: 18,
    name: "tenants' bot tokens and service accounts, encrypted",
    sqlite: tenantSecrets('INTEGER'),
    postgres: tenantSecrets('BIGINT'),
  },
  {
    version: 19,
    name: 'the trace a followed flow or a schedule was asked in',
    sqlite: traceParents,
    postgres: traceParents,
  },
  {
    version: 20,
    name: 'followed flows kept by tenant and flow ID',
    sqlite: trackedFlowsByTenant('INTEGER'),
    postgres: trackedFlowsByTenant('BIGINT'),
  },
  {
    version: 21,
    name: "the service URL each person's token was checked against",
    sqlite: personTokenUrl,
    postgres: personTokenUrl,
  },
];
