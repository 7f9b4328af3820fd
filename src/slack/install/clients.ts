import type { webApi } from '@slack/bolt';
import type { TenantVault } from '../../core/tenancy/vault.js';
import type { Logger } from '../../log.js';
import { createUserDirectory, type UserDirectory } from '../users.js';
import { Installations } from './installations.js';

/** What the bot speaks to one installation with: its Web API client and the people it looked up there. */
export interface Speaker {
  slack: webApi.WebClient;
  users: UserDirectory;
}

/**
 * What speaks to each installation (its view of the bot's one Web API client, `tokenBound`, and its
 * `users.info` cache), made the first time the bot speaks to that installation and kept for the most
 * recently used `capacity` of them (as many as the installations held, `Installations`): what each holds
 * is a few small objects and the people looked up there. Keyed by the token, so a reinstall (a new token)
 * gets a new one.
 */
export class Speakers {
  private readonly held = new Map<string, Speaker>();

  constructor(
    private readonly make: (tenant: string, token: string) => webApi.WebClient,
    private readonly logger: Logger,
    private readonly capacity = 10_000,
  ) {}

  of(tenant: string, token: string): Speaker {
    const key = `${tenant}\u0000${token}`;
    const hit = this.held.get(key);
    if (hit) {
      this.held.delete(key);
      this.held.set(key, hit);
      return hit;
    }
    const slack = this.make(tenant, token);
    const speaker = { slack, users: createUserDirectory(slack, { logger: this.logger }) };
    this.held.set(key, speaker);
    while (this.held.size > this.capacity) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.held.delete(oldest);
    }
    return speaker;
  }

  /** Drops every client of a tenant (its token was refused or it was removed). */
  drop(tenant: string): void {
    for (const key of this.held.keys()) if (key.startsWith(`${tenant}\u0000`)) this.held.delete(key);
  }

  get size(): number {
    return this.held.size;
  }
}

/** How the bot reaches each tenant's installation: through one bot token, or through each installation's. */
export interface Speech {
  /** "Add to Slack": every installation. Absent with one bot token. */
  installations: Installations | undefined;
  /** What speaks to the tenant's installation; undefined when the app is not installed there. */
  speakerFor(tenant: string | undefined): Promise<Speaker | undefined>;
}

/**
 * With one bot token every tenant is spoken to through `root`. With "Add to Slack", through each
 * installation's own client, made when needed (`Speakers`); a client whose token Slack refuses is dropped
 * with what was held of its installation, so the next use reads it again (a reinstall's new token).
 */
export function tenantSpeech(o: {
  installs: boolean;
  vault: TenantVault;
  now: () => number;
  root: Speaker;
  /** A client with `token` that calls `refused` when Slack refuses it. */
  client(token: string, refused: (error: string) => void): webApi.WebClient;
  logger: Logger;
}): Speech {
  if (!o.installs) return { installations: undefined, speakerFor: async () => o.root };
  const installations = new Installations({ vault: o.vault, now: o.now });
  const speakers: Speakers = new Speakers(
    (tenant, token) =>
      o.client(token, (error) => {
        o.logger.warn(
          { tenant, error },
          "Slack refused an installation's bot token; it is read again when next needed",
        );
        installations.forget(tenant);
        speakers.drop(tenant);
      }),
    o.logger,
  );
  return {
    installations,
    async speakerFor(tenant) {
      const installed = tenant === undefined ? undefined : await installations.find(tenant);
      return installed && speakers.of(installed.tenant, installed.token);
    },
  };
}
