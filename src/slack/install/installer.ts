import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CodedError, Installation, InstallProvider } from '@slack/oauth';
import { errText } from '../../log.js';
import { boltLogger } from '../bolt-logger.js';
import type { Bot } from '../bot.js';

/** What "Add to Slack" is configured with (SLACK_CLIENT_ID, …). */
type InstallSettings = Extract<Bot['config']['slack'], { mode: 'installs' }>;

import type { Route } from '../http/receiver.js';
import { webClientOptions } from '../web-client.js';
import { failedPage, installedPage, installPage } from './pages.js';

/** Every bot scope the app asks for when it is installed: those of the manifest the code generates. */
export async function botScopes(): Promise<string[]> {
  const { generateManifest } = await import('../manifest/generate.js');
  const { manifest } = await generateManifest();
  return (manifest.oauth_config as { scopes: { bot: string[] } }).scopes.bot;
}

/** Slack's authorize page: Slack's own, or that of the local stand-in SLACK_API_URL names. */
function authorizationUrl(apiUrl: string | undefined): string | undefined {
  return apiUrl ? new URL('/oauth/v2/authorize', apiUrl).toString() : undefined;
}

/**
 * "Add to Slack", served beside the Slack endpoint by the bot's own receiver: the install path (a page whose
 * button goes to Slack with a fresh `state`, also set as a cookie of this browser) and the redirect Slack
 * sends the installer back to (the state checked against the cookie and SLACK_STATE_SECRET, the code
 * exchanged with `oauth.v2.access`, the installation kept). Both are `@slack/oauth`'s own handling, loaded
 * on the first visit so that the bot's start does not pay for it.
 */
export function installRoutes(bot: Bot, settings: InstallSettings): Record<string, Route> {
  const installations = bot.installations;
  if (!installations) throw new Error('"Add to Slack" needs the installations of an installs-mode bot');
  const log = bot.logger.child({ part: 'install' });
  let provider: Promise<InstallProvider> | undefined;
  const installer = () =>
    (provider ??= Promise.all([import('@slack/oauth'), botScopes()]).then(([{ InstallProvider }, scopes]) => {
      const authorizeAt = authorizationUrl(bot.config.slack.apiUrl);
      return new InstallProvider({
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        stateSecret: settings.stateSecret,
        installationStore: installations.store,
        installUrlOptions: {
          scopes,
          ...(settings.redirectUri ? { redirectUri: settings.redirectUri } : {}),
        },
        renderHtmlForInstallPath: installPage,
        ...(authorizeAt ? { authorizationUrl: authorizeAt } : {}),
        clientOptions: webClientOptions(bot.config.slack.apiUrl),
        logger: boltLogger(log),
      });
    }));
  const failed = (error: CodedError, res: ServerResponse) => {
    const reason = /cancelled|access_denied/i.test(error.message)
      ? 'cancelled'
      : error.code === 'slack_oauth_invalid_state' || error.code === 'slack_oauth_missing_state'
        ? 'expired'
        : 'failed';
    log.warn({ code: error.code, err: errText(error) }, 'an installation did not complete');
    send(res, reason === 'failed' ? 500 : 400, failedPage(reason, settings.installPath));
  };
  const installed = async (installation: Installation, res: ServerResponse) => {
    const orgWide = installation.isEnterpriseInstall === true;
    const tenant = orgWide ? installation.enterprise?.id : installation.team?.id;
    const where = (orgWide ? installation.enterprise?.name : installation.team?.name) ?? tenant ?? '';
    log.info(
      { tenant, team: installation.team?.id, enterprise: installation.enterprise?.id, orgWide },
      'the app was installed',
    );
    if (tenant)
      await bot.lifecycle
        .installed(tenant, installation.user?.id, {
          orgWide,
          ...(installation.team?.id ? { team: installation.team.id } : {}),
          ...(installation.enterprise?.id ? { enterprise: installation.enterprise.id } : {}),
        })
        .catch((e: unknown) => log.error({ tenant, err: errText(e) }, 'could not audit an installation'));
    send(res, 200, installedPage(where, orgWide));
  };
  const handled = (run: (p: InstallProvider) => Promise<void>, res: ServerResponse) => {
    installer()
      .then(run)
      .catch((e: unknown) => {
        log.error({ err: errText(e, { stack: true }) }, 'the install path failed');
        if (!res.headersSent) send(res, 500, failedPage('failed', settings.installPath));
      });
  };
  return {
    [settings.installPath]: (req: IncomingMessage, res: ServerResponse) =>
      handled((p) => p.handleInstallPath(req, res), res),
    [settings.redirectPath]: (req: IncomingMessage, res: ServerResponse) =>
      handled(
        (p) =>
          p.handleCallback(req, res, {
            successAsync: (installation, _o, _req, r) => installed(installation as Installation, r),
            failure: (error, _o, _req, r) => failed(error, r),
          }),
        res,
      ),
  };
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}
