#!/usr/bin/env node
// The import boundaries of the code base (docs/architecture.md, "Boundaries"). Fails when:
//  - relative imports form a cycle (type-only imports count: they tie the files together just the same);
//  - a server module imports another module's repository or tables (it must go through that module's ports);
//  - apps/server/src/platform imports a module (platform is below every domain);
//  - apps/web/src/components or apps/web/src/lib import a feature.
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

if (process.argv.includes('--stats')) {
  const largest = cycles.reduce((n, c) => Math.max(n, c.length), 0);
  console.log(
    `files ${files.length}, imports ${edges}, cycles ${cycles.length} (largest ${largest} files), upward arrows ${upward}, violations ${violations.length}`,
  );
  process.exit(0);
}
if (violations.length > 0) {
  console.error(`Boundary check failed (${violations.length}):\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.log(`Boundaries hold: ${files.length} files, ${edges} imports, no cycle, no upward import.`);
