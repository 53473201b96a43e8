/**
 * 'Uploading attachments... (n%)' is the progress of all the response's attachments together: the bytes sent so
 * far over the bytes of every file, whichever file is on its way. Rounded down, so 100% means every byte is sent.
 * Files of zero bytes (or a set of them) count by number instead, so that the figure still moves.
 */
export function uploadPercent(sizes: readonly number[], doneFiles: number, sentOfCurrent = 0): number {
  const total = sizes.reduce((n, s) => n + Math.max(0, s), 0);
  if (sizes.length === 0) return 100;
  if (total === 0) return Math.floor((Math.min(doneFiles, sizes.length) / sizes.length) * 100);
  const done = sizes.slice(0, doneFiles).reduce((n, s) => n + Math.max(0, s), 0);
  const current = doneFiles < sizes.length ? Math.min(Math.max(0, sentOfCurrent), Math.max(0, sizes[doneFiles] ?? 0)) : 0;
  return Math.min(100, Math.floor(((done + current) / total) * 100));
}
