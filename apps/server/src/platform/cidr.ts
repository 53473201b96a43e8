import { BlockList, isIP } from 'node:net';

/** An address or CIDR as written by an administrator: `10.1.0.0/16`, `192.0.2.7`, `2001:db8::/32`. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', bits, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** A matcher for a list of addresses and CIDRs (entries that do not parse are left out). */
export function cidrList(entries: readonly string[]): { has(address: string): boolean; size: number } {
  const list = new BlockList();
  let size = 0;
  for (const entry of entries) {
    const c = parseCidr(entry);
    if (!c) continue;
    list.addSubnet(c.address, c.prefix, c.family);
    size++;
  }
  return {
    has(address: string) {
      if (size === 0) return false;
      const bare = address.replace(/^::ffff:(?=\d+\.)/, '');
      const version = isIP(bare);
      return version !== 0 && list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
    },
    size,
  };
}
