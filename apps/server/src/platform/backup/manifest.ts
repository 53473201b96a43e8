import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';

export const MANIFEST = 'manifest.json';
const FORMAT = 'sitewatch-backup';
const FORMAT_VERSION = 1;

export type BackupReason = 'manual' | 'scheduled' | 'before-migrate';

export interface BackupPart {
  /** Path inside the backup folder, with forward slashes. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  /** The moment the database was read (ISO time). */
  createdAt: string;
  reason: BackupReason;
  database: {
    kind: 'pglite' | 'pg';
    /** The part holding the database: a PGlite data folder dump (tar.gz) or a pg_dump custom-format archive. */
    part: string;
    /** The migrations applied to the database when it was read. */
    migrations: string[];
  };
  withRecordings: boolean;
  /** Files the database named that were not in the data folder when it was read (already missing at the source). */
  missingAtSource: string[];
  parts: BackupPart[];
  totalBytes: number;
  /** sha256 of this manifest written without this field: a truncated or edited manifest is found out. */
  manifestSha256: string;
}

export type UnsignedManifest = Omit<BackupManifest, 'format' | 'formatVersion' | 'manifestSha256' | 'totalBytes'>;

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the manifest, the backup's last file: a folder without one is no backup. */
export async function writeManifest(dir: string, manifest: UnsignedManifest): Promise<BackupManifest> {
  const body = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    ...manifest,
    totalBytes: manifest.parts.reduce((sum, p) => sum + p.bytes, 0),
  } as const;
  const signed: BackupManifest = { ...body, manifestSha256: digest(JSON.stringify(body)) };
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(signed, null, 1)}\n`, { flag: 'wx' });
  return signed;
}

export class BackupInvalidError extends Error {
  readonly problems: string[];
  constructor(problems: string[], dir: string) {
    super(
      `${dir} is not a complete, intact backup:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
    );
    this.problems = problems;
  }
}

/** A part's path is relative, stays inside the backup and uses forward slashes. */
const safePartPath = (path: string) =>
  typeof path === 'string' &&
  path.length > 0 &&
  !isAbsolute(path) &&
  !path.includes('\\') &&
  normalize(path)
    .split(sep)
    .every((s) => s !== '..' && s !== '');

/** Reads and checks the manifest itself (not the parts); throws BackupInvalidError naming what is wrong. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), 'utf8');
  } catch {
    throw new BackupInvalidError([`${MANIFEST} is missing (the backup never finished, or this is not a backup folder)`], dir);
  }
  let parsed: BackupManifest;
  try {
    parsed = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupInvalidError([`${MANIFEST} is damaged (not valid JSON)`], dir);
  }
  if (parsed?.format !== FORMAT || parsed.formatVersion !== FORMAT_VERSION) {
    throw new BackupInvalidError([`${MANIFEST} is not a Sitewatch backup manifest of format ${FORMAT_VERSION}`], dir);
  }
  const { manifestSha256, ...body } = parsed;
  if (digest(JSON.stringify(body)) !== manifestSha256)
    throw new BackupInvalidError([`${MANIFEST} was changed after the backup was made`], dir);
  const unsafe = parsed.parts.filter((p) => !safePartPath(p.path) || p.path === MANIFEST);
  if (unsafe.length > 0)
    throw new BackupInvalidError(
      unsafe.map((p) => `part ${JSON.stringify(p.path)} points outside the backup`),
      dir,
    );
  return parsed;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split(sep)
        .join('/'),
    );
}

/** Runs `fn` over the items, `limit` at a time. */
export async function eachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Checks a backup without restoring it: the manifest, then every part's size and sha256, and that no file was added.
 * Throws BackupInvalidError with every problem found; returns the manifest when all is well.
 */
export async function verifyBackup(dir: string): Promise<BackupManifest> {
  const manifest = await readManifest(dir);
  const problems: string[] = [];
  await eachLimit(manifest.parts, 4, async (part) => {
    const path = join(dir, ...part.path.split('/'));
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return void problems.push(`${part.path} is missing`);
    if (info.size !== part.bytes)
      return void problems.push(`${part.path} has ${info.size} bytes, ${part.bytes} expected (truncated or changed)`);
    if ((await sha256OfFile(path)) !== part.sha256) problems.push(`${part.path} does not match its checksum (changed or damaged)`);
  });
  const listed = new Set([MANIFEST, ...manifest.parts.map((p) => p.path)]);
  for (const file of await listFiles(dir)) if (!listed.has(file)) problems.push(`${file} is not part of the backup (added afterwards)`);
  if (!manifest.parts.some((p) => p.path === manifest.database.part))
    problems.push(`the database part ${manifest.database.part} is not listed`);
  if (problems.length > 0) throw new BackupInvalidError(problems.sort(), dir);
  return manifest;
}
