import type { IncomingMessage } from 'node:http';

/**
 * What keeps the stand-ins' local endpoints (`/_local/*`, `/_sandbox/*`) for their own page and for
 * programs on this machine. They act as any persona and show the personas' service tokens, so a page on
 * another site open in the same browser must not drive or read them:
 * - a Host that is not the address served is refused (421): a name that resolves to 127.0.0.1 only by DNS
 *   rebinding is not that address, so such a page never reads an answer;
 * - an Origin that is not the page's own is refused (403): a browser names the page's origin on every
 *   POST and every cross-origin read, so another site's request is turned away before anything happens;
 *   programs (tests, curl) send none and are let through;
 * - a POST body is read only when it says it is JSON (415): a plain form or `text/plain` body, which a
 *   page on any site can send without asking, is never acted on.
 */
export interface LocalRefusal {
  status: 403 | 415 | 421;
  error: string;
}

/** The `host:port` names the server answers to: the loopback names of its port, and the one it serves. */
export function servedHosts(host: string, port: number): Set<string> {
  const names = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (host !== '0.0.0.0' && host !== '::')
    names.add(host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);
  return names;
}

export function refuseForeign(req: IncomingMessage, hosts: ReadonlySet<string>): LocalRefusal | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host))
    return {
      status: 421,
      error: `this server answers only as ${[...hosts][0]}, not as "${host.slice(0, 100)}"`,
    };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`)
    return { status: 403, error: 'only the sandbox page itself may use this endpoint' };
  if (req.method === 'POST') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, error: 'send the body as application/json' };
  }
  return undefined;
}
