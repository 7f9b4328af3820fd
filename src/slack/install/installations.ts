import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import type { TenantVault } from '../../core/tenancy/vault.js';
import { type InstallationQuery as Query, tenantOfQuery } from '../tenant.js';

/** What the bot keeps in memory of one installation: its bot token, and who the bot is there. */
export interface InstalledBot {
  /** The tenant: the enterprise ID of an org-wide install, else the team ID. */
  tenant: string;
  teamId?: string;
  teamName?: string;
  enterpriseId?: string;
  enterpriseName?: string;
  isEnterpriseInstall: boolean;
  botUserId: string;
  botId: string;
  /** Who installed it (Slack's `authed_user`). */
  installerId?: string;
  /** When the bot kept it (epoch ms, the machine's clock, as Slack stamps its events); absent on older ones. */
  installedAt?: number;
  token: string;
}

/** Bolt's per-request answer: who the bot is in the installation the request is for. No token: see `authorize`. */
export interface Authorized {
  botUserId: string;
  botId: string;
  teamId?: string;
  enterpriseId?: string;
}

export interface InstallationsOptions {
  vault: TenantVault;
  now: () => number;
  /** How long an installation read from the store is trusted before it is read again (default 5 min). */
  ttlMs?: number;
  /** How many installations are held in memory at most (default 10,000): the least recently used go. */
  capacity?: number;
  /** The machine's clock, which Slack's events are stamped by (default Date.now); `now` may be a test's. */
  wallClock?: () => number;
}

const KIND = 'installation';

/**
 * Every installation of the app ("Add to Slack"), kept in the bot's store through the tenants' vault: the
 * bot token encrypted like people's tokens, every other fact of the installation as its authenticated
 * data. The installer (`@slack/oauth`) stores and fetches through `store`; the app asks `authorize` for
 * each request and `find` when it speaks to an installation.
 *
 * What was read is held in memory (a small record each, at most `capacity`), so that a request costs a
 * lookup in a map, whichever of thousands of installations it is for. A record older than `ttlMs` is still
 * used, and read again beside the request, once: with many installations, most requests would otherwise
 * come after their installation's record ran out and pay a store read and a decryption before their ack.
 * So a reinstall on another replica or thread is seen within `ttlMs` of the next request after it, or at
 * once when Slack refuses the old token (`forget`); a store that cannot be read keeps what was held.
 */
export class Installations {
  private readonly held = new Map<string, { bot: InstalledBot; until: number }>();
  /** The tenants whose records are being read again. */
  private readonly reading = new Set<string>();

  constructor(private readonly o: InstallationsOptions) {}

  /** The installation that serves this tenant, or undefined when the app is not installed there. */
  async find(tenant: string): Promise<InstalledBot | undefined> {
    const hit = this.held.get(tenant);
    if (!hit) return this.read(tenant);
    // Most recently used last, so the first is the one to drop.
    this.held.delete(tenant);
    this.held.set(tenant, hit);
    if (hit.until <= this.o.now()) this.readAgain(tenant);
    return hit.bot;
  }

  /** Reads a held record again, once at a time, without holding up the request that found it old. */
  private readAgain(tenant: string): void {
    if (this.reading.has(tenant)) return;
    this.reading.add(tenant);
    void this.read(tenant)
      .catch(() => undefined)
      .finally(() => this.reading.delete(tenant));
  }

  private async read(tenant: string): Promise<InstalledBot | undefined> {
    const now = this.o.now();
    const opened = await this.o.vault.open(tenant, KIND);
    if (!opened) {
      this.held.delete(tenant);
      return undefined;
    }
    const bot = installedBot(tenant, installationOf(opened.facts, opened.secret), opened.facts.installedAt);
    if (!bot) return undefined;
    this.hold(bot, now);
    return bot;
  }

  /**
   * Bolt's `authorize`: the installation a request is for, by `{ teamId, enterpriseId, isEnterpriseInstall }`.
   * It names the bot (so Bolt can tell the bot's own events) but gives Bolt no token: Bolt would keep a
   * Web API client per team and token for ever, and the bot speaks through its own clients, made when
   * needed (bot.ts `forTeam`).
   */
  async authorize(q: Query): Promise<Authorized> {
    const tenant = tenantOfQuery(q);
    const bot = tenant ? await this.find(tenant) : undefined;
    if (!bot)
      throw new Error(
        `the app is not installed for ${q.isEnterpriseInstall ? 'organisation' : 'team'} ${tenant ?? '(none)'}`,
      );
    return {
      botUserId: bot.botUserId,
      botId: bot.botId,
      ...(bot.teamId ? { teamId: bot.teamId } : {}),
      ...(bot.enterpriseId ? { enterpriseId: bot.enterpriseId } : {}),
    };
  }

  /** The installation kept now, read from the store (another thread or replica may have kept a new one). */
  async current(tenant: string): Promise<InstalledBot | undefined> {
    this.forget(tenant);
    return this.find(tenant);
  }

  /** Drops what is held of a tenant (its token was refused, or it was removed), so it is read again. */
  forget(tenant: string): void {
    this.held.delete(tenant);
  }

  /** The installer's store: what `@slack/oauth` keeps and looks up, through the vault. */
  readonly store: InstallationStore = {
    storeInstallation: async (installation) => {
      const tenant = installation.isEnterpriseInstall ? installation.enterprise?.id : installation.team?.id;
      if (!tenant || !installation.bot)
        throw new Error('Slack sent an installation without a team or a bot token');
      const { facts, secret } = split(installation as Installation);
      // When it was kept, by the clock Slack stamps its events with: a removal made before it is another's.
      const installedAt = (this.o.wallClock ?? Date.now)();
      await this.o.vault.keep(tenant, KIND, { ...facts, installedAt }, secret, this.o.now());
      const bot = installedBot(tenant, installation as Installation, installedAt);
      if (bot) this.hold(bot, this.o.now());
    },
    fetchInstallation: async (query: InstallationQuery<boolean>) => {
      const tenant = tenantOfQuery(query);
      const opened = tenant ? await this.o.vault.open(tenant, KIND) : undefined;
      if (!opened) throw new Error('no installation for this team or organisation');
      return installationOf(opened.facts, opened.secret);
    },
    deleteInstallation: async (query: InstallationQuery<boolean>) => {
      const tenant = tenantOfQuery(query);
      if (!tenant) return;
      this.forget(tenant);
      await this.o.vault.forget(tenant, KIND);
    },
  };

  private hold(bot: InstalledBot, now: number): void {
    this.held.delete(bot.tenant);
    this.held.set(bot.tenant, { bot, until: now + (this.o.ttlMs ?? 5 * 60_000) });
    const capacity = this.o.capacity ?? 10_000;
    while (this.held.size > capacity) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.held.delete(oldest);
    }
  }
}

/** The tokens of an installation: what is encrypted. */
interface Tokens {
  bot?: { token: string; refreshToken?: string };
  user?: { token?: string; refreshToken?: string };
  incomingWebhookUrl?: string;
}

/** An installation as the vault keeps it: the tokens (and the webhook URL) apart, everything else as facts. */
function split(i: Installation): { facts: Record<string, unknown>; secret: string } {
  const { bot, user, incomingWebhook, ...rest } = i;
  const tokens: Tokens = {
    ...(bot
      ? { bot: { token: bot.token, ...(bot.refreshToken ? { refreshToken: bot.refreshToken } : {}) } }
      : {}),
    ...(user.token || user.refreshToken
      ? {
          user: {
            ...(user.token ? { token: user.token } : {}),
            ...(user.refreshToken ? { refreshToken: user.refreshToken } : {}),
          },
        }
      : {}),
    ...(incomingWebhook ? { incomingWebhookUrl: incomingWebhook.url } : {}),
  };
  const facts = {
    ...rest,
    user: {
      id: user.id,
      ...(user.scopes ? { scopes: user.scopes } : {}),
      ...(user.expiresAt ? { expiresAt: user.expiresAt } : {}),
    },
    ...(bot
      ? {
          bot: {
            id: bot.id,
            userId: bot.userId,
            scopes: bot.scopes,
            ...(bot.expiresAt ? { expiresAt: bot.expiresAt } : {}),
          },
        }
      : {}),
    ...(incomingWebhook ? { incomingWebhook: { ...incomingWebhook, url: undefined } } : {}),
  };
  return {
    facts: JSON.parse(JSON.stringify(facts)) as Record<string, unknown>,
    secret: JSON.stringify(tokens),
  };
}

/** The installation again, from its facts and its tokens. */
function installationOf(facts: Record<string, unknown>, secret: string): Installation {
  const tokens = JSON.parse(secret) as Tokens;
  const f = facts as unknown as Installation & {
    bot?: Omit<NonNullable<Installation['bot']>, 'token'>;
    incomingWebhook?: Omit<NonNullable<Installation['incomingWebhook']>, 'url'>;
  };
  return {
    ...f,
    user: {
      ...f.user,
      token: tokens.user?.token,
      ...(tokens.user?.refreshToken ? { refreshToken: tokens.user.refreshToken } : {}),
    },
    ...(f.bot && tokens.bot
      ? {
          bot: {
            ...f.bot,
            token: tokens.bot.token,
            ...(tokens.bot.refreshToken ? { refreshToken: tokens.bot.refreshToken } : {}),
          },
        }
      : { bot: undefined }),
    ...(f.incomingWebhook && tokens.incomingWebhookUrl
      ? { incomingWebhook: { ...f.incomingWebhook, url: tokens.incomingWebhookUrl } }
      : {}),
  } as Installation;
}

function installedBot(tenant: string, i: Installation, installedAt?: unknown): InstalledBot | undefined {
  if (!i.bot?.token) return undefined;
  return {
    ...(typeof installedAt === 'number' ? { installedAt } : {}),
    tenant,
    ...(i.team?.id ? { teamId: i.team.id } : {}),
    ...(i.team?.name ? { teamName: i.team.name } : {}),
    ...(i.enterprise?.id ? { enterpriseId: i.enterprise.id } : {}),
    ...(i.enterprise?.name ? { enterpriseName: i.enterprise.name } : {}),
    isEnterpriseInstall: i.isEnterpriseInstall === true,
    botUserId: i.bot.userId,
    botId: i.bot.id,
    ...(i.user?.id ? { installerId: i.user.id } : {}),
    token: i.bot.token,
  };
}
