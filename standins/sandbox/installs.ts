import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import type { RunningBot } from '../../src/startup.js';
import { startEmulator } from '../emulator/index.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS, type LocalSlack, startLocalSlack } from '../localslack/index.js';
import { SANDBOX_APPROVERS, SECOND_WORKSPACE } from './workspaces.js';

/** The local Slack of `npm start`, the bot's configuration to use it, and what to do once the bot runs. */
export interface SandboxSlack {
  slack: LocalSlack;
  config: Config;
  /** The second workspace's own service account (an emulator of its own), by team ID, for the page. */
  workspaceServices: Record<string, { url: string; accountId: string; token: string }>;
  /**
   * Installs the app in the sandbox's own workspace through "Add to Slack", as its admin would, and
   * connects that workspace to the service (the built-in emulator), so the page works from the first visit.
   */
  installFirst(bot: RunningBot): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The bot runs in "Add to Slack" mode against the local Slack, as a deployment serving many workspaces
 * does: the sandbox's own workspace is installed at start, and a second workspace (Globex) can install it
 * from the page and connect a service account of its own (a second emulator), seeing nothing of the first.
 */
export async function sandboxSlack(
  config: Config,
  logger: Logger,
  o: { builtInService: boolean },
): Promise<SandboxSlack> {
  const signingSecret = randomBytes(16).toString('hex');
  const botToken = `xoxb-local-${randomBytes(12).toString('hex')}`;
  const app = { clientId: '1000.2000', clientSecret: randomBytes(16).toString('hex') };
  const stateSecret = randomBytes(16).toString('hex');
  const slack = await startLocalSlack({
    signingSecret,
    botToken,
    shouldEscape: true,
    oauth: app,
    teams: [SECOND_WORKSPACE.team],
    users: [...DEFAULT_USERS, ...SECOND_WORKSPACE.users],
    channels: [...DEFAULT_CHANNELS, ...SECOND_WORKSPACE.channels],
  });
  // Added to the same list, not a copy: the process's logger was made from it before these existed.
  config.secrets.push(botToken, signingSecret, app.clientSecret, stateSecret);
  // Beside the built-in emulator, Globex gets an emulator of its own: another account of the service.
  const secondService = !o.builtInService
    ? undefined
    : await startEmulator({ host: '127.0.0.1', port: 0, accountId: '1010000000000000202' });
  if (secondService) config.secrets.push(secondService.token);
  const approvers = config.approvals.approvers.length ? config.approvals.approvers : SANDBOX_APPROVERS;
  if (!config.approvals.approvers.length)
    logger.info({ approvers }, 'local Slack: the approvers are the demo people (bob, carol)');
  return {
    slack,
    workspaceServices: secondService
      ? {
          [SECOND_WORKSPACE.team.id]: {
            url: secondService.url,
            accountId: secondService.accountId,
            token: secondService.token,
          },
        }
      : {},
    config: {
      ...config,
      slack: {
        mode: 'installs',
        signingSecret,
        ...app,
        stateSecret,
        installPath: '/slack/install',
        redirectPath: '/slack/oauth_redirect',
        apiUrl: slack.apiUrl,
      },
      approvals: { ...config.approvals, approvers },
    },
    async installFirst(running) {
      const origin = `http://127.0.0.1:${running.slack.port()}`;
      slack.configureOAuth({ ...app, redirectUrl: `${origin}/slack/oauth_redirect` });
      const installed = await slack.installApp({
        installUrl: `${origin}/slack/install`,
        user: 'U0ALICE',
        teamId: 'T0LOCAL',
      });
      if (!installed.install)
        throw new Error(`the sandbox could not install the app in its workspace (${installed.status})`);
      const service = running.config.service;
      const accounts = running.bot.accounts;
      if (!accounts || !service.baseUrl || !service.accountId || !service.token) return;
      const connected = await accounts.connect(
        { teamId: 'T0LOCAL', userId: 'U0ALICE', surface: 'setup-form' },
        { baseUrl: service.baseUrl, accountId: service.accountId, token: service.token },
      );
      if (!connected.ok)
        logger.warn(
          { problems: connected.problems },
          'the sandbox workspace could not be connected to the service',
        );
    },
    async stop() {
      await Promise.allSettled([slack.close(), secondService?.close()]);
    },
  };
}
