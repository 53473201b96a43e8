import { describe, expect, it } from 'vitest';
import { countOf, describeUserAgent, formatBytes, formatDateTime } from './format.ts';

describe('formatBytes', () => {
  it('steps by 1024 from Bytes to YiB', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512 Bytes');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(1024 ** 2 * 3.25)).toBe('3.25 MiB');
    expect(formatBytes(1024 ** 8)).toBe('1 YiB');
    expect(formatBytes(1024 ** 9)).toBe('1024 YiB');
  });
});

describe('formatDateTime', () => {
  it('is empty for missing or invalid dates', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nope')).toBe('');
    expect(formatDateTime('2026-01-02T03:04:05Z', 'en-GB')).toContain('2026');
  });
});

describe('describeUserAgent', () => {
  it('names browser and system', () => {
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(describeUserAgent(null)).toBe('');
  });
});

describe('countOf', () => {
  it('puts the noun in the right number', () => {
    expect(countOf(1, 'camera')).toBe('1 camera');
    expect(countOf(6, 'camera')).toBe('6 cameras');
    expect(countOf(0, 'site')).toBe('0 sites');
    expect(countOf(1204, 'site')).toBe('1,204 sites');
    expect(countOf(2, 'child', 'children')).toBe('2 children');
  });
});
