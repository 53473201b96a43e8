/** Wall-clock times in an IANA zone, as the server keeps events (`2026-03-08T09:00`). */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** A moment as wall-clock `YYYY-MM-DDTHH:mm` in a zone. */
export function wallClock(at: Date, zone: string): string {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour === '24' ? '00' : parts.hour}:${parts.minute}`;
}

/** A browser-local date (all-day cells) as `YYYY-MM-DDT00:00`. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T00:00`;
}

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows (a short list when it cannot tell). */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? ['UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** `2026-03-08T09:00` plus minutes, as wall-clock text. */
export function addMinutes(local: string, minutes: number): string {
  return new Date(Date.parse(`${local}:00Z`) + minutes * 60_000).toISOString().slice(0, 16);
}
