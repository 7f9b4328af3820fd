import type { LocalSlackContext } from './context.js';
import { sendEvent } from './event-delivery.js';
import type { InstallTarget } from './installs.js';
import type { InstallOutcome } from './local-slack-api.js';
import type { Delivery } from './types.js';

/** A browser's cookies for one site, as far as an install needs them. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const unescapeHtml = (t: string) =>
  t
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');

/**
 * The bot's install page, followed as a browser does: its link (or redirect) to Slack's authorize page,
 * the choice made there, and the redirect back to the bot, with the cookies the bot set on the way.
 */
export async function installApp(
  ctx: LocalSlackContext,
  o: { installUrl: string; user: string; deny?: boolean } & InstallTarget,
): Promise<InstallOutcome> {
  const jar = new CookieJar();
  const page = await fetch(o.installUrl, { redirect: 'manual' });
  jar.take(page);
  const pageText = await page.text();
  const href =
    page.headers.get('location') ?? /href="([^"]*\/oauth\/v2\/authorize[^"]*)"/.exec(pageText)?.[1];
  if (!href) return { status: page.status, page: pageText };
  const authorize = new URL(unescapeHtml(href), o.installUrl);
  if (authorize.origin !== ctx.url)
    throw new Error(
      `local slack: the install page sends the browser to ${authorize.origin}, not to this stand-in`,
    );
  const form = new URLSearchParams(authorize.searchParams);
  form.set('target', 'teamId' in o ? o.teamId : o.enterpriseId);
  form.set('user', o.user);
  form.set('decision', o.deny ? 'deny' : 'allow');
  const chosen = await fetch(new URL('/oauth/v2/authorize', ctx.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const back = chosen.headers.get('location');
  if (chosen.status !== 302 || !back) return { status: chosen.status, page: await chosen.text() };
  const before = new Set(ctx.installs.all);
  const landed = await fetch(back, { headers: { cookie: jar.header() }, redirect: 'manual' });
  const install = ctx.installs.all.find((i) => !before.has(i));
  return {
    status: landed.status,
    page: await landed.text(),
    ...(install ? { install: structuredClone(install) } : {}),
  };
}

/**
 * The app removed from a workspace or an organisation: its token revoked, then `tokens_revoked` (naming
 * its bot) and `app_uninstalled` delivered to the bot, as Slack sends them.
 */
export async function uninstallApp(ctx: LocalSlackContext, target: InstallTarget): Promise<Delivery[]> {
  const install = ctx.installs.at(target);
  if (!install) throw new Error(`local slack: the app is not installed at ${JSON.stringify(target)}`);
  Object.assign(install, { status: 'revoked', installed: false });
  ctx.state.changed();
  return [
    await sendEvent(
      ctx,
      { type: 'tokens_revoked', tokens: { oauth: [], bot: [install.botUserId] } },
      { install },
    ),
    await sendEvent(ctx, { type: 'app_uninstalled' }, { install }),
  ];
}
