import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from '@sitewatch/contracts';
import { PERMISSION_CATALOGUE } from '@sitewatch/contracts';
import { describe, expect, it } from 'vitest';

/**
 * The permission catalogue (`GET /iotapp/permissions/`, the only codenames a group can be given) is the set of
 * codenames the code checks: a codename checked but missing from the catalogue could be lost for good, and one in
 * the catalogue that nothing checks grants nothing.
 */
const ROOT = join(import.meta.dirname, '../../..');
const SOURCES = ['apps/server/src', 'apps/web/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** A codename written where the code checks one: a guard, a `has`, a `need`, or a menu entry's `permission`. */
const CHECK = /(?:permissionGuard\(|hasPermission\([^,()]+,\s*|\.has\(|permission:\s*|need\(\w+,\s*)'([a-z]+(?:_[a-z]+)+)'/g;

function checkedInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of SOURCES)
    for (const file of sourceFiles(join(ROOT, dir)))
      for (const match of readFileSync(file, 'utf8').matchAll(CHECK)) found.set(match[1] as string, file.slice(ROOT.length + 1));
  return found;
}

/** The named permission sets of the contracts (`USER_PERMISSIONS`, `TRAP_PERMISSION_GRANTS`, …) the checks use. */
function checkedThroughContracts(): Set<string> {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(contracts)) {
    if (name === 'PERMISSION_CATALOGUE' || name === 'PERMISSION_CODENAMES') continue;
    if (!/_PERMISSIONS$|_PERMISSION_GRANTS$|^MANAGE_ALARM_RULES$/.test(name)) continue;
    const entries = Array.isArray(value) ? value : name === 'MANAGE_ALARM_RULES' ? [value] : Object.values(value as object);
    for (const entry of entries) found.add(typeof entry === 'string' ? entry : (entry as { codename: string }).codename);
  }
  return found;
}

describe('permission catalogue', () => {
  const catalogue = new Set<string>(PERMISSION_CATALOGUE.map((p) => p.codename));
  const inSources = checkedInSources();
  const checked = new Set([...inSources.keys(), ...checkedThroughContracts()]);

  it('holds every codename the code checks', () => {
    const missing = [...checked].filter((c) => !catalogue.has(c)).map((c) => `${c} (${inSources.get(c) ?? 'contracts'})`);
    expect(missing).toEqual([]);
  });

  it('holds only codenames the code checks', () => {
    expect([...catalogue].filter((c) => !checked.has(c))).toEqual([]);
    expect(checked.size).toBeGreaterThan(60);
  });

  it('lists each codename once', () => {
    expect(catalogue.size).toBe(PERMISSION_CATALOGUE.length);
  });
});
