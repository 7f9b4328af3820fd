import { EXAMPLE_IDS as X } from '../ids.js';

/**
 * The single source of truth for `/tsai help` and for every usage error: one entry per subcommand.
 * Every example here must parse (a test checks that).
 */
export interface CommandSpec {
  /** Stable identifier, also the `help` topic: 'workspace create', 'eval', … */
  id: string;
  /** Words that select the command after `/tsai`. */
  words: string[];
  usage: string;
  summary: string;
  examples: string[];
  /** Changes something at the service (posted in the channel, subject to TSAI_OPERATORS). */
  mutating: boolean;
  /** Canonical option keys (after normalisation) this command accepts. */
  keys: string[];
  /** Keys whose value may run on over unquoted words: `range=last 3 days`. */
  freeText?: string[];
  /** Keys a channel default (`/tsai use …`) may fill when not given. */
  defaults?: string[];
  /** The key the first positional argument stands for (a default never fills it when a positional is given). */
  positional?: string;
}

/** Alternative spellings of option keys, normalised (lowercase, `_` as `-`). */
export const KEY_ALIASES: Record<string, string> = {
  modelname: 'model-name',
  desc: 'description',
  ranges: 'range',
  'time-range': 'range',
  time: 'range',
  signal: 'signals',
  entity: 'entities',
  'output-prefix': 'prefix',
  outputsignalprefix: 'prefix',
  'outputsignal-prefix': 'prefix',
  output: 'outputs',
  outputsignals: 'outputs',
  'output-signals': 'outputs',
};

const DATA_KEYS = ['workspace', 'signals', 'range', 'dataspec', 'name', 'description'];
const FREE = ['range', 'name', 'description'];

export const COMMANDS: CommandSpec[] = [
  {
    id: 'help',
    words: ['help'],
    usage: '/tsai help [command]',
    summary: 'Show all commands, or one command with examples.',
    examples: ['/tsai help', '/tsai help learn'],
    mutating: false,
    keys: [],
  },
  {
    id: 'workspace create',
    words: ['workspace', 'create'],
    usage: '/tsai workspace create <name> [description=…]',
    summary: 'Create a workspace.',
    examples: ['/tsai workspace create "Pump station 3" description="Trials for the new pumps"'],
    mutating: true,
    keys: ['name', 'description'],
    freeText: ['name', 'description'],
  },
  {
    id: 'workspace show',
    words: ['workspace', 'show'],
    usage: '/tsai workspace show <workspace_id>',
    summary: 'Show a workspace.',
    examples: [`/tsai workspace show ${X.workspace}`],
    mutating: false,
    defaults: ['workspace'],
    positional: 'workspace',
    keys: ['workspace'],
  },
  {
    id: 'model move',
    words: ['model', 'move'],
    usage: '/tsai model move <model_id> [to] <workspace_id>',
    summary: 'Move a model to another workspace.',
    examples: [`/tsai model move ${X.model} to ${X.workspace}`],
    mutating: true,
    keys: ['model', 'workspace'],
  },
  {
    id: 'model common',
    words: ['model', 'common'],
    usage: '/tsai model common <assessment_id>',
    summary: 'Look up the common model M[0] of an assessment.',
    examples: [`/tsai model common ${X.assessment}`],
    mutating: false,
    defaults: ['assessment'],
    positional: 'assessment',
    keys: ['assessment'],
  },
  {
    id: 'eval',
    words: ['eval'],
    usage:
      '/tsai eval <assessment_id> model=<live_model_id> datastream=<id> entities=<a,b,…> range=<time range> [name=…]',
    summary:
      "Backfill a live model's output for a past time range (EVAL flow; the common model M[0] is looked up for you).",
    examples: [
      `/tsai eval ${X.assessment} model=${X.model} datastream=${X.datastream} entities=pump-1,pump-2 range="yesterday 09:00 to 17:00"`,
    ],
    mutating: true,
    defaults: ['assessment', 'model', 'datastream', 'entities'],
    positional: 'assessment',
    keys: ['assessment', 'model', 'datastream', 'entities', 'range', 'name'],
    freeText: ['range', 'name'],
  },
  {
    id: 'live',
    words: ['live'],
    usage:
      '/tsai live start|stop <model_id> [reason=…]  or  /tsai live start|stop assessment=<id> [reason=…]',
    summary: 'Ask for a live model to be started or stopped (needs approval).',
    examples: [
      `/tsai live start ${X.model} reason="new baseline"`,
      `/tsai live stop assessment=${X.assessment}`,
    ],
    mutating: true,
    keys: ['model', 'assessment', 'reason'],
    freeText: ['reason'],
  },
  {
    id: 'learn',
    words: ['learn'],
    usage:
      '/tsai learn workspace=<id> signals=<id[:label],…> range=<time range(s)> [model-name=…] [name=…] [description=…]  or  /tsai learn workspace=<id> dataspec=<id> …',
    summary: 'Train a new anomaly model (ANOMALYLEARN). Several ranges: separate them with `;`.',
    examples: [
      `/tsai learn workspace=${X.workspace} signals=${X.signal}:temperature,${X.signal2}:pressure range="last week"`,
      `/tsai learn workspace=${X.workspace} dataspec=${X.dataspec} model-name="pump-3 retrain"`,
    ],
    mutating: true,
    defaults: ['workspace'],
    keys: [...DATA_KEYS, 'model-name'],
    freeText: [...FREE, 'model-name'],
  },
  {
    id: 'relearn',
    words: ['relearn'],
    usage:
      '/tsai relearn <model_id> workspace=<id> (signals=<id[:label],…> range=<time range(s)> | dataspec=<id>)',
    summary:
      'Teach an existing anomaly model new data (incremental ANOMALYLEARN); earlier ranges need not be repeated.',
    examples: [
      `/tsai relearn ${X.model} workspace=${X.workspace} signals=${X.signal} range="Nov 20 to Nov 21"`,
    ],
    mutating: true,
    defaults: ['model', 'workspace'],
    positional: 'model',
    keys: ['model', ...DATA_KEYS],
    freeText: FREE,
  },
  {
    id: 'score',
    words: ['score'],
    usage:
      '/tsai score <model_id> workspace=<id> (signals=… range=… | dataspec=<id>) (prefix=<p> | outputs=<signal[:name],…>)',
    summary: 'Score data with an anomaly model (ANOMALYEVAL), into new output signals or existing ones.',
    examples: [
      `/tsai score ${X.model} workspace=${X.workspace} signals=${X.signal}:temperature range="yesterday" prefix=pump3-scores`,
      `/tsai score ${X.model} workspace=${X.workspace} dataspec=${X.dataspec} outputs=${X.signal2}:score`,
    ],
    mutating: true,
    defaults: ['model', 'workspace'],
    positional: 'model',
    keys: ['model', ...DATA_KEYS, 'prefix', 'outputs'],
    freeText: FREE,
  },
  {
    id: 'use',
    words: ['use'],
    usage:
      '/tsai use [workspace=<id>] [datastream=<id>] [model=<id>] [assessment=<id>] [entities=<a,b,…>]  or  /tsai use  or  /tsai use clear',
    summary:
      "Set this channel's defaults for omitted arguments (given keys replaced, others kept), show them (`/tsai use`), or remove them (`/tsai use clear`).",
    examples: [
      `/tsai use workspace=${X.workspace} datastream=${X.datastream} entities=pump-1,pump-2`,
      '/tsai use',
      '/tsai use clear',
    ],
    mutating: false,
    keys: ['workspace', 'datastream', 'model', 'assessment', 'entities'],
  },
  {
    id: 'approvals',
    words: ['approvals'],
    usage: '/tsai approvals',
    summary: 'List the pending live start/stop requests.',
    examples: ['/tsai approvals'],
    mutating: false,
    keys: [],
  },
  {
    id: 'audit',
    words: ['audit'],
    usage: '/tsai audit [n]',
    summary:
      'Show the last n approval decisions and flow creations (approvers only; default 20, at most 100).',
    examples: ['/tsai audit', '/tsai audit 50'],
    mutating: false,
    keys: [],
  },
  {
    id: 'flow',
    words: ['flow'],
    usage: '/tsai flow <flow_id>',
    summary: "Show a flow: what the bot knows from following it, and the service's status now.",
    examples: [`/tsai flow ${X.flow}`],
    mutating: false,
    keys: ['flow'],
  },
  {
    id: 'flows',
    words: ['flows'],
    usage: '/tsai flows [n]',
    summary:
      'The latest flows started from this channel, with their status as the bot follows them (default 10).',
    examples: ['/tsai flows', '/tsai flows 20'],
    mutating: false,
    keys: [],
  },
];

export function findSpec(id: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.id === id);
}

export function specById(id: string): CommandSpec {
  const spec = findSpec(id);
  if (!spec) throw new Error(`unknown command spec ${id}`);
  return spec;
}
