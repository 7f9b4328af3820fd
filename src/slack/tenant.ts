/**
 * Which installation of the app a request is for: its tenant. The bot's data (flows, requests, schedules,
 * the catalog, people's tokens) is scoped to it, and in "Add to Slack" mode it also picks the bot token and
 * the service account that serve the request.
 *
 * - A workspace install: the workspace's team ID, as Slack sends it (what the bot has always scoped by).
 * - An org-wide install on Enterprise Grid (`is_enterprise_install`): the organisation's enterprise ID,
 *   whichever of its workspaces the request comes from. People have one ID across the organisation and a
 *   channel may be shared by several of its workspaces, so what one of them starts, the others see, as
 *   for one workspace; another organisation, or a workspace installed on its own, is another tenant.
 *
 * Read as Bolt reads it to authorise a request (App.ts `buildSource`, helpers `isBodyWithTypeEnterpriseInstall`),
 * so that the tenant a request is scoped to is the installation it was authorised as.
 */
export function teamOf(body: unknown): string | undefined {
  const b = record(body);
  if (!b) return undefined;
  const event = record(b.event);
  if (event) {
    const auth = Array.isArray(b.authorizations) ? record(b.authorizations[0]) : undefined;
    if (auth) {
      if (auth.is_enterprise_install === true) return str(auth.enterprise_id) ?? str(b.enterprise_id);
      return str(auth.team_id) ?? str(b.team_id);
    }
    return str(b.team_id);
  }
  const orgWide = b.is_enterprise_install === true || b.is_enterprise_install === 'true';
  if (b.command !== undefined) return orgWide ? str(b.enterprise_id) : str(b.team_id);
  const team = record(b.team);
  if (orgWide) return str(record(b.enterprise)?.id) ?? str(team?.enterprise_id) ?? str(b.enterprise_id);
  return (
    str(record(b.view)?.app_installed_team_id) ??
    str(team?.id) ??
    str(record(b.user)?.team_id) ??
    str(b.team_id)
  );
}

/** What Bolt asks an `authorize` function to find: the installation a request is for. */
export interface InstallationQuery {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall: boolean;
}

/** The tenant of the installation Bolt asks for: the organisation's for an org-wide install, else the team's. */
export function tenantOfQuery(q: InstallationQuery): string | undefined {
  return q.isEnterpriseInstall ? q.enterpriseId : q.teamId;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
