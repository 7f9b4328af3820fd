import type { types } from '@slack/bolt';
import { CHANNEL_DEFAULT_KEYS, type StoredChannelDefaults } from '../../core/channel-defaults.js';
import type { ApprovalRequest, Schedule, TrackedFlow } from '../../core/records.js';
import { formatShifts } from '../../core/time.js';
import { LIMITS } from '../../wire/block-kit.js';
import { describeAction } from '../approvals/index.js';
import { completionMessage, statusLine } from '../flows/index.js';
import { type HomeIdentity, standingBlocks } from '../identity/index.js';
import { scheduleLine } from '../schedules/index.js';
import {
  code,
  context,
  escapeMrkdwn,
  type KnownBlock,
  limitBlocks,
  mention,
  section,
  shorten,
  slackTime,
} from '../views/mrkdwn.js';
import { HOME_ACTION, HOME_CALLBACK } from './ids.js';

export { HOME_ACTION, HOME_CALLBACK };

/** How many of each list the Home shows; the rest is "and N more". Together well within 100 blocks. */
export const HOME_SHOWN = { waiting: 10, mine: 10, flows: 15, channels: 8 } as const;

/** How far back the Home lists a person's flows. */
export const HOME_FLOW_DAYS = 7;

/** A list as the Home shows it: the first items, and how many there are in all (`more`: at least that). */
export interface Listed<T> {
  items: T[];
  total: number;
  /** The store was asked for at most `total`: there may be more. */
  atLeast?: boolean;
}

export interface HomeChannel {
  channelId: string;
  defaults: StoredChannelDefaults | null;
}

/** Everything one person's Home shows, read from the store for their team. */
export interface HomeData {
  userId: string;
  /** Only approvers see what waits for their approval. */
  isApprover: boolean;
  waiting: Listed<ApprovalRequest>;
  mine: Listed<ApprovalRequest>;
  flows: Listed<TrackedFlow>;
  channels: Listed<HomeChannel>;
  /** Names the team's catalog knows, by ID: models, workspaces, datastreams, assessments. */
  names: Readonly<Record<string, string>>;
  /** When it was built (ms), for how long flows have run. */
  now: number;
  timeZone: string;
  /** Whom they act as at the service, and whether they can connect. */
  identity?: HomeIdentity;
  /** The schedules they own, in every channel. */
  schedules?: Listed<Schedule>;
  /**
   * "Add to Slack": what the workspace's service account section shows them (the setup feature's), when
   * there is something to show: no account yet, or one they may change (its admins).
   */
  setup?: KnownBlock[];
}

const header = (text: string): KnownBlock => ({
  type: 'header',
  text: { type: 'plain_text', text: shorten(text, LIMITS.headerText), emoji: true },
});

const divider: KnownBlock = { type: 'divider' };

/** `…and 1 more request.`, `…and at least 15 more flows: …` (`noun` singular; `where`: where to see them). */
function more(list: Listed<unknown>, shown: number, noun: string, where = ''): KnownBlock[] {
  const rest = list.total - shown;
  if (rest <= 0) return [];
  const count = `${list.atLeast ? 'at least ' : ''}${rest} more ${rest === 1 ? noun : `${noun}s`}`;
  return [context(`…and ${count}${where}.`)];
}

/** `Baseline` `1070…` when the catalog knows a name, else the ID alone. */
function named(id: string, names: Readonly<Record<string, string>>): string {
  const name = names[id];
  return name ? `${escapeMrkdwn(name)} ${code(id)}` : code(id);
}

function requestLine(r: ApprovalRequest, names: Readonly<Record<string, string>>): string {
  const model = names[r.modelId] ? ` (${escapeMrkdwn(names[r.modelId]!)})` : '';
  const reason = r.reason ? `\n_${escapeMrkdwn(r.reason)}_` : '';
  return `${describeAction(r)}${model}${reason}`;
}

function waitingBlocks(d: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header(`Waiting for your approval (${d.waiting.total})`)];
  if (d.waiting.items.length === 0) {
    blocks.push(context('Nothing waits for your approval.'));
    return blocks;
  }
  for (const r of d.waiting.items) {
    blocks.push(
      section(
        `${mention(r.requesterId)} asks to ${requestLine(r, d.names)}\nIn <#${r.approvalsChannelId}> · expires ${slackTime(r.expiresAt)} · request ${code(r.id)}`,
      ),
      {
        type: 'actions',
        block_id: `home_decide_${r.id}`.slice(0, LIMITS.blockId),
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Approve' },
            action_id: HOME_ACTION.approve,
            value: r.id,
            style: 'primary',
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Reject' },
            action_id: HOME_ACTION.reject,
            value: r.id,
            style: 'danger',
          },
        ],
      },
    );
  }
  blocks.push(...more(d.waiting, d.waiting.items.length, 'request', ': `/tsai approvals` lists them all'));
  return blocks;
}

function mineBlocks(d: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header(`Your pending requests (${d.mine.total})`)];
  if (d.mine.items.length === 0) {
    blocks.push(context('You have no request waiting for approval.'));
    return blocks;
  }
  for (const r of d.mine.items) {
    blocks.push(
      section(
        `You asked to ${requestLine(r, d.names)}\nIn <#${r.approvalsChannelId}> · filed ${slackTime(r.createdAt)} · expires ${slackTime(r.expiresAt)} · request ${code(r.id)}`,
      ),
    );
  }
  blocks.push(...more(d.mine, d.mine.items.length, 'request'));
  return blocks;
}

/** One flow: what it is, its status as followed, and for a finished one what it produced. */
function flowBlock(f: TrackedFlow, d: HomeData): KnownBlock {
  const text = `*${escapeMrkdwn(f.flowType)}* ${code(f.flowId)} · ${slackTime(f.createdAt)} in <#${f.channelId}>\n${statusLine(f, d.now)}`;
  const fields =
    f.endReason === 'ended'
      ? completionMessage(f, { timeZone: d.timeZone })
          .blocks.flatMap((b) =>
            b.type === 'section' && 'fields' in b && b.fields ? b.fields.map((x) => x.text) : [],
          )
          .slice(0, LIMITS.sectionFields)
      : [];
  const block = section(text) as types.SectionBlock;
  if (fields.length) block.fields = fields.map((t) => ({ type: 'mrkdwn', text: t, verbatim: true }));
  return block;
}

function flowBlocks(d: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header(`Your flows, last ${HOME_FLOW_DAYS} days (${d.flows.total})`)];
  if (d.flows.items.length === 0) {
    blocks.push(context(`No flows started by you in the last ${HOME_FLOW_DAYS} days.`));
    return blocks;
  }
  for (const f of d.flows.items) blocks.push(flowBlock(f, d));
  blocks.push(...more(d.flows, d.flows.items.length, 'flow', ': `/tsai flows` in a channel lists its own'));
  return blocks;
}

function defaultsText(c: HomeChannel, names: Readonly<Record<string, string>>): string {
  const d = c.defaults;
  const parts = d
    ? CHANNEL_DEFAULT_KEYS.flatMap((k) => {
        const v = d[k];
        if (v === undefined) return [];
        return [`${k} ${Array.isArray(v) ? code(v.join(', ')) : named(v, names)}`];
      })
    : [];
  if (d?.shifts?.length) parts.push(`shifts ${code(formatShifts(d.shifts))}`);
  return parts.length ? parts.join(' · ') : '_no defaults_ (`/tsai use …` sets them)';
}

function channelBlocks(d: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [header('Your channels')];
  if (d.channels.items.length === 0) {
    blocks.push(context('Channels where you use `/tsai` are listed here, with their defaults.'));
    return blocks;
  }
  for (const c of d.channels.items) blocks.push(section(`<#${c.channelId}>: ${defaultsText(c, d.names)}`));
  blocks.push(...more(d.channels, d.channels.items.length, 'channel'));
  return blocks;
}

/**
 * One person's App Home: what waits for their approval (with Approve and Reject), their pending
 * requests, their flows of the last days with their status and results, and the channels they use
 * with each one's defaults. Pure: the same data gives the same view, always within Slack's limits.
 */
export function homeView(d: HomeData): types.HomeView {
  const blocks: KnownBlock[] = [
    header('tsai'),
    context(
      `What waits for you, what you asked for, and your flows. Updated ${slackTime(d.now, '{date_short_pretty} {time}')}. \`/tsai help\` in any channel lists the commands.`,
    ),
  ];
  if (d.setup) blocks.push(divider, header("This workspace's service account"), ...d.setup);
  if (d.identity)
    blocks.push(
      divider,
      header('Your service identity'),
      ...standingBlocks(d.identity.standing, d.identity.canConnect),
    );
  if (d.isApprover) blocks.push(divider, ...waitingBlocks(d));
  blocks.push(divider, ...mineBlocks(d), divider, ...flowBlocks(d), divider, ...channelBlocks(d));
  if (d.schedules?.items.length)
    blocks.push(
      divider,
      header('Your schedules'),
      ...d.schedules.items.map((s, i) => section(scheduleLine(s, i + 1, { channel: true }))),
      ...more(d.schedules, d.schedules.items.length, 'schedule', ': `/tsai schedules` in their channels'),
    );
  return {
    type: 'home',
    callback_id: HOME_CALLBACK,
    blocks: limitBlocks(blocks, LIMITS.blocksPerModal),
  };
}

/**
 * The Home when Slack refused the full one (`invalid_blocks`, `view_too_large`): where to find the same
 * things with commands, so the tab never stays empty or stale without a word.
 */
export function fallbackHomeView(now: number): types.HomeView {
  return {
    type: 'home',
    callback_id: HOME_CALLBACK,
    blocks: [
      header('tsai'),
      section(
        `Your Home could not be shown in full (${slackTime(now, '{date_short_pretty} {time}')}). In any channel, \`/tsai approvals\` lists what waits for approval and \`/tsai flows\` the latest flows; \`/tsai help\` lists the commands.`,
      ),
    ],
  };
}
