import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = new URL('.', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('query keys', () => {
  it('are spelled only in the keys.ts of their domain (queries, invalidations and realtime use them)', () => {
    const literal = /(queryKey:\s*\[|QueryData\(\s*\[|invalidateOn\([^,]+,\s*\[)/;
    const offenders = sources(FEATURES)
      .filter((path) => !path.endsWith('/keys.ts'))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => (literal.test(line) ? `${relative(FEATURES, path)}:${i + 1}` : null))
          .filter((hit): hit is string => hit !== null),
      );
    expect(offenders).toEqual([]);
  });
});
