import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes a lock held across every test process of this machine and returns its release. The two Vitest passes run
 * side by side and share what is not theirs, such as the machine's Mosquitto: a test that counts what arrives on the
 * broker's device topics holds the lock while it counts. A lock whose process has ended is taken over.
 */
export async function machineLock(name: string, timeoutMs = 120_000): Promise<() => void> {
  const path = join(tmpdir(), `sitewatch-test-${name}.lock`);
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) rmSync(path, { force: true });
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // released between the two calls
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > until) throw new Error(`the machine lock ${name} is still held by process ${holder}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
