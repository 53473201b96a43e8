import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** What a file says when it opens a test database itself or hands one to a process it starts. */
const OPENS_DATABASE = /\b(freshDatabase|createTestApp|TEST_DATABASE_URL)\b/;
const IMPORT = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

const typeScriptFiles = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));

/**
 * The server's test files whose outcome does not depend on the test database (rules, parsers, and the embedded
 * database's own tests, which open PGlite whatever the run), relative to `root`: the PostgreSQL pass leaves them out,
 * since the PGlite pass already ran them. A file depends on the test database when it, or a test helper it imports
 * (directly or through other helpers), opens one or reads TEST_DATABASE_URL.
 */
export function filesWithoutDatabase(root: string): string[] {
  const files = [...typeScriptFiles(join(root, 'src')), ...typeScriptFiles(join(root, 'test'))];
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const local = [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1] as string));
    imports.set(file, OPENS_DATABASE.test(text) ? ['<database>'] : local);
  }
  const memo = new Map<string, boolean>();
  const usesDatabase = (file: string): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, false);
    // helpers are followed through the test folder only: the product's own modules reach the database driver anyway
    const result = (imports.get(file) ?? []).some(
      (target) => target === '<database>' || (target.includes('/test/') && usesDatabase(target)),
    );
    memo.set(file, result);
    return result;
  };
  return files
    .filter((file) => file.endsWith('.test.ts') && !usesDatabase(file))
    .map((file) => relative(root, file))
    .sort();
}
