import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type {
  AppSettings,
  LocalChannel,
  LocalEnterprise,
  LocalMessage,
  LocalTeam,
  LocalUser,
  LocalUsergroup,
  OpenView,
} from './types.js';
import { assignIds } from './views.js';

export const TEAM_ID = 'T0LOCAL';
export const TEAM_DOMAIN = 'localslack';
export const APP_ID = 'A0LOCAL';
export const BOT_ID = 'B0LOCAL';
export const BOT_USER_ID = 'U0LOCALBOT';
/**
 * What an app that asks for mentions, direct messages and the assistant pane subscribes to, unless
 * configured otherwise (the pane's events reach it only where it has a pane: `AppSettings.assistantView`).
 */
export const DEFAULT_BOT_EVENTS = [
  'app_home_opened',
  'function_executed',
  'app_mention',
  'message.im',
  'assistant_thread_started',
  'assistant_thread_context_changed',
];

export interface ChannelState extends LocalChannel {
  messages: LocalMessage[];
}

interface Trigger {
  user: string;
  issuedAt: number;
  used: boolean;
}

export interface ResponseTarget {
  user: string;
  channel?: string;
  /** The message that held the clicked element (replace_original / delete_original act on it). */
  messageTs?: string;
  /** The user's slash-command message (promoted to in-channel by an in_channel reply). */
  commandTs?: string;
  issuedAt: number;
  uses: number;
}

const rid = (prefix: string, n = 8) => prefix + randomBytes(n).toString('hex').toUpperCase().slice(0, n);

/** The whole observable workspace: what a sandbox renders and what tests assert on. */
export class SlackState extends EventEmitter {
  readonly teams = new Map<string, LocalTeam>();
  readonly enterprises = new Map<string, LocalEnterprise>();
  readonly users = new Map<string, LocalUser>();
  readonly channels = new Map<string, ChannelState>();
  readonly usergroups = new Map<string, LocalUsergroup>();
  /** Open modal stack per user, bottom first. */
  readonly views = new Map<string, OpenView[]>();
  /** Published App Home per user. */
  readonly home = new Map<string, OpenView>();
  readonly triggers = new Map<string, Trigger>();
  readonly responseTargets = new Map<string, ResponseTarget>();
  /** The app's configuration (kept across `reset`). */
  readonly app: AppSettings = {
    homeTabEnabled: true,
    messagesTabEnabled: true,
    messagesTabReadOnly: false,
    chatWritePublic: true,
    botEvents: [...DEFAULT_BOT_EVENTS],
  };
  /** Increments on every change; a sandbox can long-poll on it. */
  version = 0;
  private lastMicros = 0;

  constructor(
    private readonly seed: {
      teams: LocalTeam[];
      enterprises: LocalEnterprise[];
      users: LocalUser[];
      channels: LocalChannel[];
      usergroups: LocalUsergroup[];
    },
    readonly now: () => number,
  ) {
    super();
    this.setMaxListeners(100);
    this.load();
  }

  private load(): void {
    this.teams.clear();
    this.enterprises.clear();
    for (const t of this.seed.teams) this.teams.set(t.id, { ...t });
    for (const e of this.seed.enterprises) this.enterprises.set(e.id, { ...e });
    this.users.clear();
    this.channels.clear();
    this.usergroups.clear();
    for (const u of this.seed.users) this.users.set(u.id, { ...u });
    for (const c of this.seed.channels) this.channels.set(c.id, { ...c, messages: [] });
    for (const g of this.seed.usergroups) this.usergroups.set(g.id, { ...g, users: [...g.users] });
  }

  reset(): void {
    this.load();
    this.views.clear();
    this.home.clear();
    this.triggers.clear();
    this.responseTargets.clear();
    this.changed();
  }

  changed(): void {
    this.version++;
    this.emit('change', this.version);
  }

  /** A Slack-style, strictly increasing message ts ("seconds.micros"). */
  nextTs(): string {
    const micros = Math.max(Date.now() * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  newViewId(): string {
    return rid('V', 10);
  }

  newHash(): string {
    return `${Math.floor(Date.now() / 1000)}.${randomBytes(6).toString('hex')}`;
  }

  issueTrigger(user: string): string {
    const id = `${Date.now()}.${rid('', 6)}.${randomBytes(12).toString('hex')}`;
    this.triggers.set(id, { user, issuedAt: this.now(), used: false });
    return id;
  }

  /** Slack's trigger rules: issued by us, used once, within 3 s. */
  useTrigger(id: unknown, ttlMs: number): { user: string } | { error: string } {
    const t = typeof id === 'string' ? this.triggers.get(id) : undefined;
    if (!t) return { error: 'invalid_trigger_id' };
    if (t.used) return { error: 'exchanged_trigger_id' };
    if (this.now() - t.issuedAt > ttlMs) return { error: 'expired_trigger_id' };
    t.used = true;
    return { user: t.user };
  }

  issueResponseUrl(target: Omit<ResponseTarget, 'issuedAt' | 'uses'>): string {
    const id = randomBytes(16).toString('hex');
    this.responseTargets.set(id, { ...target, issuedAt: this.now(), uses: 0 });
    return id;
  }

  /** Resolves a channel argument; a user ID opens (creates) the DM with that user as Slack does. */
  channel(id: unknown): ChannelState | undefined {
    if (typeof id !== 'string') return undefined;
    const found = this.channels.get(id);
    if (found) return found;
    const user = this.users.get(id);
    if (!user) return undefined;
    const dmId = `D${user.id}`;
    let dm = this.channels.get(dmId);
    if (!dm) {
      dm = { id: dmId, name: user.name, isIm: true, isPrivate: true, members: [user.id], messages: [] };
      this.channels.set(dmId, dm);
    }
    return dm;
  }

  /** The workspace a user acts from. */
  teamOf(userId: string): LocalTeam {
    const id = this.users.get(userId)?.teamId ?? TEAM_ID;
    const team = this.teams.get(id);
    if (!team)
      throw new Error(`local slack: user ${userId} is in a workspace the stand-in does not know (${id})`);
    return team;
  }

  /** The workspaces a conversation is in: a DM is in its member's. */
  teamsOf(ch: LocalChannel): string[] {
    if (ch.isIm) return (ch.members ?? []).map((u) => this.teamOf(u).id);
    return ch.teams ?? [TEAM_ID];
  }

  /** The bot is in every DM and, unless configured otherwise, in every channel. */
  botIn(ch: LocalChannel): boolean {
    return ch.isIm === true || ch.botMember !== false;
  }

  /** Whether the bot may post in (and update its messages of) a channel, being in it or by scope. */
  botMayPost(ch: LocalChannel): boolean {
    return this.botIn(ch) || (!ch.isPrivate && this.app.chatWritePublic);
  }

  /** Whether a user sees the conversation at all: DMs only their member. */
  canSee(ch: LocalChannel, user: string): boolean {
    return ch.isIm !== true || (ch.members ?? []).includes(user);
  }

  message(channel: string, ts: string): LocalMessage | undefined {
    return this.channels.get(channel)?.messages.find((m) => m.ts === ts);
  }

  addMessage(m: Omit<LocalMessage, 'ts' | 'edits'> & { ts?: string }): LocalMessage {
    const msg: LocalMessage = { ...m, blocks: assignIds(m.blocks), ts: m.ts ?? this.nextTs(), edits: 0 };
    if (msg.blocks === undefined) delete msg.blocks;
    const ch = this.channels.get(m.channel);
    if (!ch) throw new Error(`no channel ${m.channel}`);
    ch.messages.push(msg);
    this.changed();
    return msg;
  }

  removeMessage(channel: string, ts: string): boolean {
    const ch = this.channels.get(channel);
    if (!ch) return false;
    const i = ch.messages.findIndex((m) => m.ts === ts);
    if (i < 0) return false;
    ch.messages.splice(i, 1);
    this.changed();
    return true;
  }

  /** Messages a user sees in a channel, in order: in-channel ones plus ephemerals addressed to them. */
  visibleMessages(channel: string, user: string, threadTs?: string): LocalMessage[] {
    const ch = this.channels.get(channel);
    if (!ch || !this.canSee(ch, user)) return [];
    return ch.messages.filter(
      (m) =>
        (m.ephemeralTo === undefined || m.ephemeralTo === user) &&
        (threadTs === undefined
          ? m.threadTs === undefined || m.broadcast === true
          : m.threadTs === threadTs || m.ts === threadTs),
    );
  }

  stack(user: string): OpenView[] {
    let s = this.views.get(user);
    if (!s) {
      s = [];
      this.views.set(user, s);
    }
    return s;
  }

  topView(user: string): OpenView | undefined {
    const s = this.views.get(user);
    return s?.[s.length - 1];
  }

  /** A modal anywhere in any stack, or a published Home view, by view_id or external_id. */
  findView(by: { viewId?: unknown; externalId?: unknown }): OpenView | undefined {
    const all = [...[...this.views.values()].flat(), ...this.home.values()];
    if (typeof by.viewId === 'string') return all.find((v) => v.id === by.viewId);
    if (typeof by.externalId === 'string') return all.find((v) => v.externalId === by.externalId);
    return undefined;
  }
}
