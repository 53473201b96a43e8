import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/**
 * Which ffmpeg and ffprobe the product runs. In order: the configured path (`FFMPEG_PATH`, `FFPROBE_PATH`), the
 * system's own when it is new enough, and the static build that the npm registry ships inside
 * `@ffmpeg-installer/ffmpeg` / `@ffprobe-installer/ffprobe`, so that `npm install` alone brings cameras to life.
 * `FFMPEG_SYSTEM=false` skips the system's binaries.
 */

export type ToolName = 'ffmpeg' | 'ffprobe';
export type ToolSource = 'configured' | 'system' | 'bundled';

export interface VideoTool {
  path: string;
  /** What `-version` says, e.g. `7.1.1-1+b1` or `N-47683-g0e8eb07980-static`. */
  version: string;
  /** The major version, or null for a build named after a commit (the bundled ffmpeg is one of 2018, 4.1-era). */
  major: number | null;
  source: ToolSource;
  /** The RTSP option that bounds socket I/O in microseconds: `-stimeout` before 5.0, where `-timeout` means listen. */
  rtspTimeoutOption: '-timeout' | '-stimeout';
}

/** The oldest system ffmpeg preferred over the bundled build: HLS with fMP4 segments came in 4.0. */
export const MIN_SYSTEM_MAJOR = 4;

const SYSTEM_DIRS = ['/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'];

const BUNDLED: Record<ToolName, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

export function parseVersion(output: string): { version: string; major: number | null } | null {
  const match = /^ff(?:mpeg|probe) version (\S+)/m.exec(output);
  if (!match?.[1]) return null;
  const version = match[1];
  const major = /^n?(\d+)\./.exec(version);
  return { version, major: major?.[1] ? Number(major[1]) : null };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function versionOf(path: string): { version: string; major: number | null } | null {
  const result = spawnSync(path, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 5000 });
  if (result.error || result.status !== 0) return null;
  return parseVersion(`${result.stdout}`) ?? { version: 'unknown', major: null };
}

function rtspTimeoutOption(path: string, major: number | null): VideoTool['rtspTimeoutOption'] {
  if (major !== null && major >= 5) return '-timeout';
  const help = spawnSync(path, ['-hide_banner', '-h', 'demuxer=rtsp'], { encoding: 'utf8', timeout: 5000 });
  return /-stimeout\s/.test(`${help.stdout}`) ? '-stimeout' : '-timeout';
}

function tool(path: string, found: { version: string; major: number | null }, source: ToolSource): VideoTool {
  return { path, ...found, source, rtspTimeoutOption: rtspTimeoutOption(path, found.major) };
}

function bundledPath(name: ToolName): string | null {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require(BUNDLED[name]) as { path?: string };
    return pkg.path && isExecutable(pkg.path) ? pkg.path : null;
  } catch {
    // the platform has no build in the registry, or optional dependencies were left out
    return null;
  }
}

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  /** Folders searched for the system's binary; by default the usual ones and PATH. */
  searchDirs?: string[];
  /** Whether the npm build may be used (tests of the failure message turn it off). */
  bundled?: boolean;
}

export function resolveTool(name: ToolName, options: ResolveOptions = {}): VideoTool | null {
  const env = options.env ?? process.env;
  const configured = name === 'ffmpeg' ? env.FFMPEG_PATH : env.FFPROBE_PATH;
  if (configured) {
    const found = versionOf(configured);
    return found ? tool(configured, found, 'configured') : null;
  }
  const system = env.FFMPEG_SYSTEM !== 'false';
  const dirs = options.searchDirs ?? (system ? [...SYSTEM_DIRS, ...(env.PATH ?? '').split(delimiter).filter(Boolean)] : []);
  for (const dir of new Set(dirs)) {
    const path = join(dir, name);
    if (!isExecutable(path)) continue;
    const found = versionOf(path);
    if (found && (found.major === null || found.major >= MIN_SYSTEM_MAJOR)) return tool(path, found, 'system');
  }
  if (options.bundled === false) return null;
  const path = bundledPath(name);
  const found = path ? versionOf(path) : null;
  return path && found ? tool(path, found, 'bundled') : null;
}

export interface VideoTools {
  ffmpeg: VideoTool | null;
  ffprobe: VideoTool | null;
}

/** What a person must do when a tool is missing; null when both work. */
export function missingToolsMessage(tools: VideoTools): string | null {
  const missing = (['ffmpeg', 'ffprobe'] as const).filter((name) => !tools[name]);
  if (!missing.length) return null;
  return `${missing.join(' and ')} not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH; cameras cannot record until then`;
}

/** The socket I/O timeout of an RTSP input, in microseconds, as this tool spells it. */
export function rtspTimeoutArgs(tool: VideoTool | null, microseconds: number): string[] {
  return [tool?.rtspTimeoutOption ?? '-timeout', String(microseconds)];
}

export function describeTool(tool: VideoTool | null): string | null {
  return tool ? `${tool.version} (${tool.source})` : null;
}
