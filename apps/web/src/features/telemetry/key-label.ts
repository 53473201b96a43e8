import type { TemplateTelemetry } from '@sitewatch/contracts/devices';

/** A key's label with its unit ("Cellular SIM 1 signal (dBm)"), or the key itself when nothing names it. */
export function keyLabel(keys: TemplateTelemetry[], key: string): string {
  const known = keys.find((k) => k.key === key);
  if (!known) return key;
  return known.unit ? `${known.label} (${known.unit})` : known.label;
}
