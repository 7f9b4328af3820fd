import { isIP } from 'node:net';

/**
 * One entry of TSAI_SERVICE_ALLOWED_ADDRESSES read: a host name, an IP address, or a network in CIDR
 * notation (`10.20.0.0/16`, `fd00::/8`); undefined when it is none of these.
 */
export function allowlistEntry(
  text: string,
):
  | { kind: 'host'; host: string }
  | { kind: 'network'; address: string; prefix: number; family: 4 | 6 }
  | undefined {
  const [address = '', prefixText, ...more] = text.trim().split('/');
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family !== 0 && more.length === 0) {
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    return prefix >= 0 && prefix <= max
      ? { kind: 'network', address: ip, prefix, family: family === 4 ? 4 : 6 }
      : undefined;
  }
  if (prefixText !== undefined) return undefined;
  const host = address.toLowerCase().replace(/\.$/, '');
  return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(
    host,
  )
    ? { kind: 'host', host }
    : undefined;
}
