import { formatBytes } from '../lib/format.ts';

/** A byte count as Bytes, KiB, MiB, ... YiB (SPEC 9), with the exact count as a tooltip. */
export function ByteSize({ bytes, decimals = 2 }: { bytes: number; decimals?: number }) {
  return <span title={`${bytes.toLocaleString()} bytes`}>{formatBytes(bytes, decimals)}</span>;
}
