import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** The install-wide rule of which addresses anything may dial: `private` (public and LAN), `public` only, or `any` (a lab). */
export type GuardMode = 'public' | 'private' | 'any';

const never = new BlockList();
// loopback, unspecified, link-local (cloud metadata lives at 169.254.169.254 / fd00:ec2::254), multicast, reserved
never.addSubnet('127.0.0.0', 8, 'ipv4');
never.addSubnet('0.0.0.0', 8, 'ipv4');
never.addSubnet('169.254.0.0', 16, 'ipv4');
never.addSubnet('100.100.100.200', 32, 'ipv4'); // Alibaba metadata
never.addSubnet('224.0.0.0', 4, 'ipv4');
never.addSubnet('240.0.0.0', 4, 'ipv4');
never.addAddress('::1', 'ipv6');
never.addAddress('::', 'ipv6');
never.addSubnet('fe80::', 10, 'ipv6');
never.addSubnet('fd00:ec2::', 32, 'ipv6');
never.addSubnet('ff00::', 8, 'ipv6');
// IPv6 forms that carry an IPv4 address (a way round every IPv4 rule): IPv4-compatible ::a.b.c.d, IPv4-mapped
// ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and its local-use 64:ff9b:1::/48, 6to4 2002::/16, Teredo
// (a list of its own: BlockList also matches plain IPv4 addresses against IPv4-mapped rules)
const embeddedIpv4 = new BlockList();
embeddedIpv4.addSubnet('::', 96, 'ipv6');
embeddedIpv4.addSubnet('::ffff:0:0', 96, 'ipv6');
embeddedIpv4.addSubnet('::ffff:0:0:0', 96, 'ipv6');
embeddedIpv4.addSubnet('64:ff9b::', 96, 'ipv6');
embeddedIpv4.addSubnet('64:ff9b:1::', 48, 'ipv6');
embeddedIpv4.addSubnet('2002::', 16, 'ipv6');
embeddedIpv4.addSubnet('2001::', 32, 'ipv6');

const privateRanges = new BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** The addresses of this machine's own interfaces (its external IP reaches its own services), refreshed a minute. */
let own: { list: BlockList; at: number } | null = null;
function ownAddresses(): BlockList {
  if (own && Date.now() - own.at < 60_000) return own.list;
  const list = new BlockList();
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? []) list.addAddress(entry.address.replace(/%.*$/, ''), entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
  own = { list, at: Date.now() };
  return list;
}

/** The install-wide guard: loopback, link-local, metadata, this machine and embedded IPv4 forms are refused unless `any`. */
export function addressAllowed(address: string, mode: GuardMode): boolean {
  if (mode === 'any') return true;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (never.check(address, family) || ownAddresses().check(address, family)) return false;
  if (family === 'ipv6' && embeddedIpv4.check(address, family)) return false;
  if (mode === 'public' && privateRanges.check(address, family)) return false;
  return true;
}
