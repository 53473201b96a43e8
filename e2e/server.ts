import { rmSync } from 'node:fs';

/** Starts the product for browser tests on a fresh embedded database. */
rmSync(process.env.DATA_DIR as string, { recursive: true, force: true });
await import('../apps/server/src/main.ts');
