import type { DownloadJob } from '@sitewatch/contracts/downloads';
import { downloadStatusColour, formatTimeLeft, shownProgress } from '@sitewatch/contracts/downloads';
import { describe, expect, it } from 'vitest';
import { dayLabel, expiresText, groupByDay, highlightParts, matchesQuery } from './grouping.ts';

const job = (jobId: number, createdAt: string, name = `Export ${jobId}`): DownloadJob => ({
  jobId,
  name,
  kind: 'users',
  status: 'completed',
  progress: 100,
  progressStatus: {},
  tasks: [
    {
      id: jobId,
      tid: '00000000-0000-4000-8000-000000000001',
      name: `${name}.csv`,
      cameraLabel: null,
      description: '',
      status: 'completed',
      progress: 100,
      path: null,
      isRead: true,
      size: 10,
    },
  ],
  lastUpdated: createdAt,
  createdAt,
  expiresAt: null,
  error: null,
});

describe('downloads page rules', () => {
  const now = new Date(2026, 4, 13, 15, 0); // Wednesday 13 May 2026

  it('groups by Today, Yesterday, then weekday and date', () => {
    expect(dayLabel(new Date(2026, 4, 13, 0, 5), now, 'en-GB')).toBe('Today');
    expect(dayLabel(new Date(2026, 4, 12, 23, 59), now, 'en-GB')).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 4, 10, 9, 0), now, 'en-GB')).toBe('Sunday, 10 May 2026');
    const groups = groupByDay(
      [
        job(3, new Date(2026, 4, 13, 9).toISOString()),
        job(2, new Date(2026, 4, 13, 8).toISOString()),
        job(1, new Date(2026, 4, 11, 8).toISOString()),
      ],
      now,
      'en-GB',
    );
    expect(groups.map((g) => [g.label, g.jobs.map((j) => j.jobId)])).toEqual([
      ['Today', [3, 2]],
      ['Monday, 11 May 2026', [1]],
    ]);
  });

  it('searches names ignoring case and cuts the text for highlighting', () => {
    expect(matchesQuery(job(1, now.toISOString(), 'Site Summary'), 'summ')).toBe(true);
    expect(matchesQuery(job(1, now.toISOString(), 'Site Summary'), 'tickets')).toBe(false);
    expect(highlightParts('Users users', 'user')).toEqual([
      { text: 'User', match: true },
      { text: 's ', match: false },
      { text: 'user', match: true },
      { text: 's', match: false },
    ]);
  });

  it('tells the time left in months, days, hours and minutes, or Few minutes', () => {
    const minute = 60_000;
    expect(formatTimeLeft(30_000)).toBe('Few minutes');
    expect(formatTimeLeft(5 * minute)).toBe('5 minutes');
    expect(formatTimeLeft((2 * 24 * 60 + 3 * 60 + 1) * minute)).toBe('2 days 3 hours 1 minute');
    expect(formatTimeLeft((31 * 24 * 60 + 60) * minute)).toBe('1 month 1 day 1 hour');
    expect(expiresText(new Date(Date.now() + 90 * minute + 500).toISOString())).toBe('Expires In 1 hour 30 minutes');
    expect(expiresText(null)).toBeNull();
  });

  it('colours and fills progress by status', () => {
    expect(downloadStatusColour('failed')).toBe('#d32f2f');
    expect(downloadStatusColour('completed')).toBe('#2e7d32');
    expect(downloadStatusColour('processing')).toBe('#ed6c02');
    expect(downloadStatusColour('ready-to-download')).toBe('#1976d2');
    expect(downloadStatusColour('starting')).toBe('#1976d2');
    expect(shownProgress('failed', 12)).toBe(100);
    expect(shownProgress('ready-to-download', 0)).toBe(100);
    expect(shownProgress('processing', 42.4)).toBe(42);
  });
});
