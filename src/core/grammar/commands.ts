import { EXAMPLE_IDS as X } from '../ids.js';
import { onRegistered, REGISTRY, registeredSpec } from '../operations/registry/index.js';
import { SCHEDULE_COMMANDS } from '../schedules/commands.js';
import type { CommandSpec } from './spec.js';

export type { CommandSpec } from './spec.js';

/** The bot's own commands; the service's operations bring theirs from the registry. */
const HELP: CommandSpec = {
  id: 'help',
  words: ['help'],
  usage: '/tsai help [command]',
  summary: 'Show all commands, or one command with examples.',
  examples: ['/tsai help', '/tsai help learn'],
  mutating: false,
  said: [{ phrases: ['what can you do', 'help'] }],
  keys: [],
};

const BOT_COMMANDS: CommandSpec[] = [
  {
    id: 'use',
    words: ['use'],
    usage:
      '/tsai use [workspace=<id>] [datastream=<id>] [model=<id>] [assessment=<id>] [entities=<a,b,…>] [shifts=<start,start,…>|none]  or  /tsai use  or  /tsai use clear',
    summary:
      "Set this channel's defaults for omitted arguments and its shifts (given keys replaced, others kept), show them (`/tsai use`), or remove them (`/tsai use clear`). With shifts declared, ranges such as `last shift` or `the night shift yesterday` read them.",
    examples: [
      `/tsai use workspace=${X.workspace} datastream=${X.datastream} entities=pump-1,pump-2`,
      '/tsai use shifts=morning@06:00,late@14:00,night@22:00',
      '/tsai use',
      '/tsai use clear',
    ],
    mutating: false,
    keys: ['workspace', 'datastream', 'model', 'assessment', 'entities', 'shifts'],
    aliases: { entity: 'entities' },
    answers: 'in the channel (set, clear); only you (show)',
  },
  {
    id: 'approvals',
    words: ['approvals'],
    usage: '/tsai approvals',
    summary: 'List the pending live start/stop requests.',
    examples: ['/tsai approvals'],
    mutating: false,
    said: [
      {
        phrases: [
          'what waits for me',
          'what is waiting',
          'pending approvals',
          'pending requests',
          'approvals',
        ],
      },
    ],
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
    said: [{ phrases: ['audit log', 'who approved'] }],
    keys: [],
  },
  {
    id: 'flows',
    words: ['flows'],
    usage: '/tsai flows [n]',
    summary:
      'The latest flows started from this channel, with their status as the bot follows them (default 10).',
    examples: ['/tsai flows', '/tsai flows 20'],
    mutating: false,
    said: [
      {
        phrases: [
          'my flows',
          'list the flows',
          'recent flows',
          'what was started',
          'what is running',
          'flows',
        ],
      },
    ],
    keys: [],
  },
];

/** Acting as oneself at the service: each person's own service token. */
const IDENTITY_COMMANDS: CommandSpec[] = [
  {
    id: 'connect',
    words: ['connect'],
    usage: '/tsai connect',
    summary:
      "Act as yourself at the service: a private form takes your own service token (made in the service's user interface), checks it and keeps it encrypted.",
    examples: ['/tsai connect'],
    mutating: false,
    keys: [],
  },
  {
    id: 'whoami',
    words: ['whoami'],
    usage: '/tsai whoami',
    summary: 'Whom you act as at the service: your own token (since when, which account) or the bot’s.',
    examples: ['/tsai whoami'],
    mutating: false,
    said: [{ phrases: ['who am i', 'whom do i act as'] }],
    keys: [],
  },
  {
    id: 'disconnect',
    words: ['disconnect'],
    usage: '/tsai disconnect',
    summary: 'Delete the service token you connected; you act with the bot’s identity again.',
    examples: ['/tsai disconnect'],
    mutating: false,
    keys: [],
  },
  {
    id: 'setup',
    words: ['setup'],
    usage: '/tsai setup',
    summary:
      "Connect this Slack workspace to its own service account (its admins, where the app was installed with Add to Slack): a private form takes the service's URL, the account ID and a token, checked with the service before they are kept.",
    examples: ['/tsai setup'],
    mutating: false,
    keys: [],
  },
];

const service = (id: string): CommandSpec => {
  const spec = registeredSpec(id);
  if (!spec) throw new Error(`no operation has the command ${id}`);
  return spec;
};

/** Every command, in the order help lists them (operations registered later after the shipped ones). */
export const COMMANDS: CommandSpec[] = [];

function listCommands(): CommandSpec[] {
  const ops = REGISTRY.filter((e) => e.command.id !== 'flow').map((e) => service(e.command.id));
  return [
    HELP,
    ...ops,
    ...BOT_COMMANDS.filter((c) => c.id !== 'flows'),
    service('flow'),
    ...BOT_COMMANDS.filter((c) => c.id === 'flows'),
    ...IDENTITY_COMMANDS,
    ...SCHEDULE_COMMANDS,
  ];
}

COMMANDS.push(...listCommands());
onRegistered(() => COMMANDS.splice(0, COMMANDS.length, ...listCommands()));

export function findSpec(id: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.id === id);
}

export function specById(id: string): CommandSpec {
  const spec = findSpec(id);
  if (!spec) throw new Error(`unknown command spec ${id}`);
  return spec;
}
