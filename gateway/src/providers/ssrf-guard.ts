import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { gatewayError } from '../errors.js';

// Addresses a provider base URL may never point at unless GW_ALLOW_PRIVATE_UPSTREAMS=true: loopback, private,
// link-local (cloud metadata at 169.254.169.254), CGNAT, unique-local, multicast and unspecified ranges.
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const invalid = (message: string) => gatewayError('invalid_base_url', message);

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Every outbound URL a user can influence passes here (CONVENTIONS.md security habits): https only and every address
 * the host resolves to must be public. The upstream client never follows redirects, so a public host cannot bounce a
 * request inward. `allowPrivate` (GW_ALLOW_PRIVATE_UPSTREAMS) lifts both rules for local simulators and labs.
 */
export async function assertSafeUpstreamUrl(
  raw: string,
  options: { allowPrivate: boolean; resolver?: Resolver },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('baseUrl must be an absolute URL');
  }
  if (url.username || url.password) throw invalid('baseUrl must not carry credentials');
  if (options.allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('baseUrl must use http or https');
    return url;
  }
  if (url.protocol !== 'https:')
    throw invalid('baseUrl must use https (set GW_ALLOW_PRIVATE_UPSTREAMS=true for local upstreams)');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(hostname) ? [hostname] : await (options.resolver ?? systemResolver)(hostname);
  } catch {
    throw invalid(`baseUrl host ${hostname} does not resolve`);
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw invalid(`baseUrl host ${hostname} resolves to a private or reserved address`);
  return url;
}

/** `GW_CUSTOM_HOST_ALLOWLIST`: comma-separated hosts (optionally `*.example.com`) a gw-upstream may target. */
export function customHostAllowed(url: URL, allowlist: string | undefined): boolean {
  if (!allowlist) return false;
  const host = url.hostname.toLowerCase();
  return allowlist
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) =>
      entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry || url.host.toLowerCase() === entry,
    );
}
