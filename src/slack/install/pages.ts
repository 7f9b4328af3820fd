/**
 * The few pages a browser sees while installing the app: the "Add to Slack" page, and the page Slack's
 * redirect ends on (installed, or why not and how to start again). Plain HTML, every inserted text escaped.
 */

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1c1d;line-height:1.5}' +
  'a.button{display:inline-block;background:#4a154b;color:#fff;padding:.6rem 1.2rem;border-radius:.3rem;text-decoration:none;font-weight:600}' +
  'code{background:#f4f4f4;padding:0 .2rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The install path: one button to Slack's authorize page, with the state that ties the answer to this browser. */
export function installPage(authorizeUrl: string): string {
  return page(
    'Add tsai to Slack',
    `<p>tsai runs the time-series AI service from Slack: commands, forms, approvals and schedules, in your channels.</p>
<p><a class="button" id="add-to-slack" href="${escapeHtml(authorizeUrl)}">Add to Slack</a></p>
<p>Slack then asks you where to install it and shows what it may do. Once installed, a workspace admin connects it to your service account with <code>/tsai setup</code>.</p>`,
  );
}

/** Where an installation ends: what was installed, and what to do next. */
export function installedPage(where: string, orgWide: boolean): string {
  return page(
    'tsai is installed',
    `<p>tsai is now installed ${orgWide ? 'for the whole organisation' : 'in'} <strong>${escapeHtml(where)}</strong>.</p>
<p>Next, a Slack admin${orgWide ? ' of the organisation' : ' of the workspace'} connects it to your service account: type <code>/tsai setup</code> in any channel. Until then, commands say so instead of running.</p>
<p>You can close this page.</p>`,
  );
}

/** Why an installation did not complete, with the way to start again. */
export function failedPage(reason: 'cancelled' | 'expired' | 'failed', installPath: string): string {
  const said = {
    cancelled: 'The installation was cancelled in Slack, so nothing was installed.',
    expired:
      "This installation was started too long ago, or in another browser, so Slack's answer could not be trusted and nothing was installed.",
    failed:
      "Slack did not complete the installation, so nothing was installed (the reason is in the bot's log).",
  }[reason];
  return page(
    'tsai was not installed',
    `<p>${escapeHtml(said)}</p><p><a class="button" href="${escapeHtml(installPath)}">Start again</a></p>`,
  );
}
