import { rmSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Starts the product for browser tests on a fresh embedded database. */
rmSync(process.env.DATA_DIR as string, { recursive: true, force: true });
// Chromium raises its compositor threads to nice -8; on two cores the browsers would then starve the server they
// test and time its pushes out. Ahead of them, the server still uses a fraction of a core. Needs root: else as is.
try {
  setPriority(-10);
} catch {}
await import('../apps/server/src/main.ts');
