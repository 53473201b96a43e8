#!/usr/bin/env node
// The import boundaries of the code base (docs/architecture.md, "Boundaries"). Fails when:
//  - relative imports form a cycle (type-only imports count: they tie the files together just the same);
//  - a server module imports another module's repository or tables (it must go through that module's ports);
//  - apps/server/src/platform imports a module (platform is below every domain);
//  - apps/web/src/components or apps/web/src/lib import a feature;
//  - a server module's or platform's SQL names another module's table (query builder calls and sql`` text alike),
//    beyond the reads listed in SHARED_READS below.
// `--stats` prints the figures (files, imports, cycles, upward arrows) and never fails.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const ROOTS = ['apps/server/src', 'apps/web/src', 'packages/contracts/src'];
const EXT = /\.(ts|tsx)$/;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (EXT.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    base.replace(/\.js$/, '.ts'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const files = ROOTS.flatMap((r) => walk(join(root, r)));
const graph = new Map();
let edges = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(file, m[1] ?? m[2] ?? m[3]);
    if (target) targets.add(target);
  }
  edges += targets.size;
  graph.set(file, [...targets]);
}

const rel = (f) => relative(root, f);
const violations = [];

// Cycles: strongly connected components of more than one file (Tarjan).
let index = 0;
const stack = [];
const info = new Map();
const cycles = [];
function strongConnect(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!info.has(w)) {
      strongConnect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component);
  }
}
for (const v of graph.keys()) if (!info.has(v)) strongConnect(v);
for (const c of cycles) violations.push(`import cycle of ${c.length} files: ${c.map(rel).sort().join(', ')}`);

const serverModule = (f) => rel(f).match(/^apps\/server\/src\/modules\/([^/]+)\//)?.[1] ?? null;
const isPrivateTable = (f) => /(^|[-/])(repository|tables)\.ts$/.test(rel(f)) || /-repository\.ts$/.test(rel(f));
let upward = 0;
for (const [file, targets] of graph) {
  const from = rel(file);
  for (const target of targets) {
    const to = rel(target);
    const a = serverModule(file);
    const b = serverModule(target);
    if (a && b && a !== b && isPrivateTable(target)) violations.push(`${from} reaches into another module's tables: ${to}`);
    if (from.startsWith('apps/server/src/platform/') && (to.startsWith('apps/server/src/modules/') || to === 'apps/server/src/app.ts')) {
      upward++;
      violations.push(`platform imports a module: ${from} -> ${to}`);
    }
    if (a && to === 'apps/server/src/app.ts') {
      upward++;
      violations.push(`a module imports the app wiring: ${from} -> ${to}`);
    }
    if (/^apps\/web\/src\/(components|lib)\//.test(from) && to.startsWith('apps/web/src/features/')) {
      upward++;
      violations.push(`shared web code imports a feature: ${from} -> ${to}`);
    }
  }
}

// Table ownership: each module's tables (its tables.ts) and the foundation tables of the module that owns them.
// (The other foundation tables, such as tenants, audit_log and the mail and SMS outboxes, belong to platform/.)
const FOUNDATION_OWNERS = { users: 'users', groups: 'users', sessions: 'auth', captchas: 'auth', otp_codes: 'auth' };
/**
 * Another module's tables still named in SQL, by `module -> table`. None are left: a query that joins the sites' or
 * the devices' tables for speed composes that module's SQL builders (modules/sites/scope.ts, modules/devices/scope.ts).
 * The list may only shrink; a new need gets a port or a builder of the owner instead.
 */
const SHARED_READS = new Set();
const owners = new Map(Object.entries(FOUNDATION_OWNERS));
for (const file of files) {
  const m = rel(file).match(/^apps\/server\/src\/modules\/([^/]+)\/(?:[\w-]+-)?tables\.ts$/);
  if (!m) continue;
  const block = readFileSync(file, 'utf8').match(/export interface \w+Tables \{([^}]*)\}/)?.[1] ?? '';
  for (const t of block.matchAll(/^\s*(\w+):\s*\w+;/gm)) owners.set(t[1], m[1]);
}
const BUILDER = /\b(?:selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'(\w+)/g;
const SQL_TEXT = /\bsql(?:<[^`]*?>)?`([^`]*)`/g;
const SQL_TABLE = /\b(?:from|join|update|into)\s+(\w+)/gi;
const sharedSeen = new Set();
for (const file of files) {
  const mod = serverModule(file) ?? (rel(file).startsWith('apps/server/src/platform/') ? 'platform' : null);
  if (!mod || /\.test\.ts$|fixtures\.ts$/.test(file)) continue;
  const text = readFileSync(file, 'utf8');
  const named = [...text.matchAll(BUILDER)].map((m) => m[1]);
  for (const q of text.matchAll(SQL_TEXT)) named.push(...[...q[1].matchAll(SQL_TABLE)].map((m) => m[1]));
  for (const table of new Set(named)) {
    const owner = owners.get(table);
    if (!owner || owner === mod) continue;
    const key = `${mod} -> ${table}`;
    if (SHARED_READS.has(key)) sharedSeen.add(key);
    else violations.push(`${rel(file)} names the ${owner} module's table ${table} in SQL (use its ports)`);
  }
}
for (const key of SHARED_READS) if (!sharedSeen.has(key)) violations.push(`SHARED_READS lists ${key}, which no longer happens: remove it`);

if (process.argv.includes('--stats')) {
  const largest = cycles.reduce((n, c) => Math.max(n, c.length), 0);
  console.log(
    `files ${files.length}, imports ${edges}, cycles ${cycles.length} (largest ${largest} files), upward arrows ${upward}, tables ${owners.size}, SQL reads of another module's table ${sharedSeen.size}, violations ${violations.length}`,
  );
  process.exit(0);
}
if (violations.length > 0) {
  console.error(`Boundary check failed (${violations.length}):\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Boundaries hold: ${files.length} files, ${edges} imports, no cycle, no upward import, ${owners.size} tables each named in SQL by its owner (and ${sharedSeen.size} listed shared reads).`,
);
