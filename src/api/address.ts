import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { allowlistEntry } from '../config/addresses.js';

/**
 * Which addresses a service URL someone typed (a tenant's `/tsai setup`) may reach. Such a URL is untrusted
 * input: pointed at the bot's own network (its loopback, a private or link-local address, the cloud's
 * metadata address), it would have the bot's server call what only that server can reach, carrying its
 * people's tokens. So it must be https, carry no credentials, and resolve only to public addresses, unless
 * the deployment allows a host or a network (TSAI_SERVICE_ALLOWED_ADDRESSES: an on-premises service, the
 * sandbox's emulator), where plain http is taken too. The address is checked when the URL is given and
 * again at every connection (`vettedLookup`), since what a name resolves to can change (DNS rebinding).
 * The service the operator configured (TSAI_BASE_URL) is the operator's choice and is not checked.
 */

/** Why an address is refused, as a person reads it. */
const REFUSED_RANGES: readonly { what: string; ranges: readonly [string, number, 'ipv4' | 'ipv6'][] }[] = [
  {
    what: 'a loopback address (this machine)',
    ranges: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    what: 'an unspecified address',
    ranges: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    what: 'a private network address',
    ranges: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ],
  },
  {
    what: "a link-local address (the cloud's metadata service among them)",
    ranges: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  { what: 'a shared (carrier-grade NAT) address', ranges: [['100.64.0.0', 10, 'ipv4']] },
  {
    what: 'a reserved or multicast address',
    ranges: [
      ['192.0.0.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
      // IPv4-compatible IPv6 (deprecated): another way to write an IPv4 address.
      ['::', 96, 'ipv6'],
    ],
  },
];

const REFUSED = REFUSED_RANGES.map((r) => {
  const list = new BlockList();
  for (const [net, prefix, family] of r.ranges) list.addSubnet(net, prefix, family);
  return { what: r.what, list };
});

/** `::ffff:a.b.c.d` (or its hex form) as the IPv4 address it stands for; anything else as given. */
export function unmapped(address: string): string {
  const ip = address.replace(/^\[|\]$/g, '');
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (hex) {
    const hi = Number.parseInt(hex[1]!, 16);
    const lo = Number.parseInt(hex[2]!, 16);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return ip;
}

/** Why `address` (an IP) may not be reached from a URL someone typed; undefined for a public address. */
export function refusedAddress(address: string): string | undefined {
  const ip = unmapped(address);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  return REFUSED.find((r) => r.list.check(ip, family))?.what;
}

/** What the deployment allows besides public https addresses: host names, and networks. */
export interface AddressAllowlist {
  hosts: ReadonlySet<string>;
  networks: BlockList;
  /** The entries as configured, for a message. */
  entries: readonly string[];
}

/** The allowlist from TSAI_SERVICE_ALLOWED_ADDRESSES's entries (already checked by the configuration). */
export function addressAllowlist(entries: readonly string[] = []): AddressAllowlist {
  const hosts = new Set<string>();
  const networks = new BlockList();
  for (const e of entries) {
    const read = allowlistEntry(e);
    if (read?.kind === 'host') hosts.add(read.host);
    else if (read) networks.addSubnet(read.address, read.prefix, read.family === 4 ? 'ipv4' : 'ipv6');
  }
  return { hosts, networks, entries: [...entries] };
}

const allowedNetwork = (allow: AddressAllowlist, address: string) => {
  const ip = unmapped(address);
  return allow.networks.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
};

/** Resolves a host name to every address it has now (the system resolver, as connections use it). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/** The error a connection meets when its host now resolves to an address it may not reach. */
export const ADDRESS_REFUSED = 'ERR_TSAI_ADDRESS_REFUSED';

/**
 * Which of a host's addresses may be connected to, or why none may: every address it resolves to is
 * checked (an attacker's name may answer with a public and a private one), and one refused refuses the host.
 */
function vetAddresses(
  host: string,
  addresses: readonly LookupAddress[],
  allow: AddressAllowlist,
): { ok: true; addresses: LookupAddress[] } | { ok: false; problem: string } {
  if (addresses.length === 0) return { ok: false, problem: `${host} has no address` };
  if (allow.hosts.has(host.toLowerCase())) return { ok: true, addresses: [...addresses] };
  for (const a of addresses) {
    const why = refusedAddress(a.address);
    if (why && !allowedNetwork(allow, a.address))
      return { ok: false, problem: `${host} is ${a.address}, ${why}` };
  }
  return { ok: true, addresses: [...addresses] };
}

export type UrlVerdict =
  | { ok: true; url: URL }
  /** What is wrong, as a sentence for the form's URL field. */
  | { ok: false; problem: string };

const ALLOW_VARIABLE = 'TSAI_SERVICE_ALLOWED_ADDRESSES';

/**
 * A service URL someone typed, checked before anything is sent to it: https (http only to an allowed host
 * or network), no credentials, and a host that resolves now, to addresses it may reach.
 */
export async function vetServiceUrl(
  text: string,
  allow: AddressAllowlist,
  resolve: Resolve = systemResolve,
): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return {
      ok: false,
      problem: "That is not the service's address: give its URL, e.g. https://tsai.example.com",
    };
  }
  if (url.username || url.password)
    return {
      ok: false,
      problem: 'Leave the user and password out of the URL: the token goes in its own field.',
    };
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return {
      ok: false,
      problem: "That is not the service's address: give its URL, e.g. https://tsai.example.com",
    };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else
    try {
      addresses = await resolve(host);
    } catch {
      return {
        ok: false,
        problem: `The bot could not find ${host} (DNS gave no address), so nothing was sent: check the URL.`,
      };
    }
  const vetted = vetAddresses(host, addresses, allow);
  if (!vetted.ok)
    return {
      ok: false,
      problem: `This URL reaches into the bot's own network (${vetted.problem}), which a service URL may not, so nothing was sent to it. Give the service's public https address; an on-premises service is allowed by the bot's operator (${ALLOW_VARIABLE}).`,
    };
  const allowedPlain =
    allow.hosts.has(host.toLowerCase()) || vetted.addresses.every((a) => allowedNetwork(allow, a.address));
  if (url.protocol === 'http:' && !allowedPlain)
    return {
      ok: false,
      problem: `The service's URL must start with https://, so that its token never crosses the network in the clear: e.g. https://${url.host}`,
    };
  return { ok: true, url };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` a connection to a typed service URL makes (undici's `connect.lookup`, which net and tls
 * call): the host resolved and checked at that moment, and the connection made to exactly the addresses
 * checked, so a name that resolved to a public address when it was given and to a private one now
 * (DNS rebinding) is refused before a byte is sent.
 */
export function vettedLookup(allow: AddressAllowlist, resolve: Resolve = systemResolve) {
  return (
    host: string,
    options: { all?: boolean; family?: number } | number,
    callback: LookupCallback,
  ): void => {
    const all = typeof options === 'object' && options.all === true;
    const family = typeof options === 'number' ? options : options.family;
    resolve(host).then(
      (found) => {
        const wanted = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        const vetted = vetAddresses(host, wanted, allow);
        if (!vetted.ok) {
          const err: NodeJS.ErrnoException = new Error(`refused to connect: ${vetted.problem}`);
          err.code = ADDRESS_REFUSED;
          return callback(err, all ? [] : '', 0);
        }
        if (all) return callback(null, vetted.addresses);
        const first = vetted.addresses[0]!;
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, all ? [] : '', 0),
    );
  };
}
