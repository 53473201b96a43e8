import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressAllowed } from '../../platform/outbound-guard.ts';
import type { NetworkMatcher } from '../../platform/outbound-networks.ts';
import type { VideoSettings } from './settings.ts';

export { addressAllowed };

/** The refusal of an address outside the tenant's networks: a category, never the address. */
export const OUTSIDE_TENANT_NETWORKS =
  "streamUrl points outside the networks this organisation's devices may use (a system administrator sets them)";

/**
 * Resolves the camera URL's host and checks every address (SSRF guard). Returns the URL with the host replaced by
 * the checked address, so that ffmpeg connects where we checked (no DNS rebinding between check and connect).
 */
export async function checkStreamUrl(
  url: string,
  networks: VideoSettings['VIDEO_STREAM_NETWORKS'],
  tenant: NetworkMatcher,
): Promise<{ ok: true; pinned: string } | { ok: false; reason: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'streamUrl is not a valid URL' };
  }
  if (parsed.protocol !== 'rtsp:' && parsed.protocol !== 'rtsps:')
    return { ok: false, reason: 'streamUrl must be an rtsp:// or rtsps:// URL' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: 'streamUrl host does not resolve' };
  }
  if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a, networks))) {
    return {
      ok: false,
      reason: 'streamUrl points to an address cameras may not use (this server, loopback, link-local, metadata or an embedded IPv4 form)',
    };
  }
  if (addresses.some((a) => !tenant.allows(a))) return { ok: false, reason: OUTSIDE_TENANT_NETWORKS };
  // rtsps needs the name for TLS verification: keep it; plain rtsp is pinned to the checked address.
  if (parsed.protocol === 'rtsp:' && !isIP(host)) {
    const first = addresses[0] as string;
    parsed.hostname = isIP(first) === 6 ? `[${first}]` : first;
  }
  return { ok: true, pinned: parsed.toString() };
}
