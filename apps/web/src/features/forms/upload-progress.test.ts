import { describe, expect, it } from 'vitest';
import { uploadPercent } from './upload-progress.ts';

describe('uploadPercent', () => {
  it('counts the bytes of all the attachments together, not the files', () => {
    const sizes = [300, 100, 600];
    expect(uploadPercent(sizes, 0)).toBe(0);
    // One file of three done, but only 30% of the bytes.
    expect(uploadPercent(sizes, 1)).toBe(30);
    expect(uploadPercent(sizes, 2)).toBe(40);
    expect(uploadPercent(sizes, 3)).toBe(100);
  });

  it('adds the bytes already sent of the file on its way', () => {
    expect(uploadPercent([300, 100, 600], 2, 300)).toBe(70);
    expect(uploadPercent([1000], 0, 250)).toBe(25);
    // More than the file's size (headers counted by the browser) stays within the file.
    expect(uploadPercent([100, 100], 0, 500)).toBe(50);
  });

  it('shows 100% only once every byte is sent', () => {
    expect(uploadPercent([999_000, 1_000], 1)).toBe(99);
    expect(uploadPercent([999_000, 1_000], 1, 999)).toBe(99);
    expect(uploadPercent([999_000, 1_000], 2)).toBe(100);
  });

  it('counts empty files by number and an empty list as done', () => {
    expect(uploadPercent([0, 0], 0)).toBe(0);
    expect(uploadPercent([0, 0], 1)).toBe(50);
    expect(uploadPercent([0, 0], 2)).toBe(100);
    expect(uploadPercent([], 0)).toBe(100);
    expect(uploadPercent([0, 10], 1)).toBe(0);
  });
});
