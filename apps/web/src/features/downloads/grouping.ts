import { DOWNLOAD_MESSAGES, type DownloadJob, formatTimeLeft } from '@sitewatch/contracts/downloads';

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** SPEC 2.8: Today, Yesterday, or the weekday and the date. */
export function dayLabel(value: string | Date, now: Date = new Date(), locale?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  if (days === 0) return DOWNLOAD_MESSAGES.today;
  if (days === 1) return DOWNLOAD_MESSAGES.yesterday;
  return new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}

export interface DayGroup {
  key: string;
  label: string;
  jobs: DownloadJob[];
}

/** Jobs by the day they were created, keeping their order (newest first). */
export function groupByDay(jobs: DownloadJob[], now: Date = new Date(), locale?: string): DayGroup[] {
  const groups: DayGroup[] = [];
  for (const job of jobs) {
    const created = new Date(job.createdAt);
    const key = String(startOfDay(created));
    let group = groups.find((g) => g.key === key);
    if (!group) {
      group = { key, label: dayLabel(created, now, locale), jobs: [] };
      groups.push(group);
    }
    group.jobs.push(job);
  }
  return groups;
}

/** The file a job is about: its single file's name, or the job name when it has several. */
export const fileOf = (job: DownloadJob) => (job.tasks.length === 1 ? (job.tasks[0]?.name ?? job.name) : job.name);

/** Search over job name, file names and camera labels, ignoring case. */
export function matchesQuery(job: DownloadJob, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [job.name, ...job.tasks.flatMap((t) => [t.name, t.cameraLabel ?? ''])].some((text) => text.toLowerCase().includes(q));
}

/** The text cut into parts that match the query and parts that do not, for highlighting. */
export function highlightParts(text: string, query: string): Array<{ text: string; match: boolean }> {
  const q = query.trim().toLowerCase();
  if (!q) return [{ text, match: false }];
  const parts: Array<{ text: string; match: boolean }> = [];
  const lower = text.toLowerCase();
  let at = 0;
  for (let found = lower.indexOf(q); found !== -1; found = lower.indexOf(q, at)) {
    if (found > at) parts.push({ text: text.slice(at, found), match: false });
    parts.push({ text: text.slice(found, found + q.length), match: true });
    at = found + q.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/** 'Expires In 2 days 3 hours', or null when the job has no expiry. */
export function expiresText(expiresAt: string | null, now: number = Date.now()): string | null {
  if (!expiresAt) return null;
  return DOWNLOAD_MESSAGES.expiresIn(formatTimeLeft(Math.max(0, new Date(expiresAt).getTime() - now)));
}
