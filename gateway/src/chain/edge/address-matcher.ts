import { BlockList, isIP } from 'node:net';

/**
 * Whether an address is one of a list of addresses and CIDR ranges (`GW_TRUSTED_PROXIES`' syntax, validated by the
 * config), IPv4 or IPv6.
 */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
