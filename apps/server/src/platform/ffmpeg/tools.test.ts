import { describe, expect, it } from 'vitest';
import { missingToolsMessage, parseVersion, resolveTool, rtspTimeoutArgs } from './tools.ts';

describe('video tools', () => {
  it('reads the version of release and snapshot builds', () => {
    expect(parseVersion('ffmpeg version 7.1.1-1+b1 Copyright (c) 2000-2025')).toEqual({ version: '7.1.1-1+b1', major: 7 });
    expect(parseVersion('ffprobe version n6.1 Copyright')).toEqual({ version: 'n6.1', major: 6 });
    expect(parseVersion('ffmpeg version N-47683-g0e8eb07980-static https://')).toEqual({
      version: 'N-47683-g0e8eb07980-static',
      major: null,
    });
    expect(parseVersion('something else')).toBeNull();
  });

  it('falls back to the build the npm registry ships when the system has none', () => {
    const ffmpeg = resolveTool('ffmpeg', { searchDirs: [], env: {} });
    const ffprobe = resolveTool('ffprobe', { searchDirs: [], env: {} });
    expect(ffmpeg).toMatchObject({ source: 'bundled' });
    expect(ffprobe).toMatchObject({ source: 'bundled' });
    expect(ffmpeg?.path).toContain('@ffmpeg-installer');
    // the 2018 build reads -timeout on RTSP as a listen timeout; its socket timeout is -stimeout
    expect(rtspTimeoutArgs(ffmpeg, 5_000_000)).toEqual(['-stimeout', '5000000']);
    expect(rtspTimeoutArgs(ffprobe, 5_000_000)).toEqual(['-timeout', '5000000']);
    expect(missingToolsMessage({ ffmpeg, ffprobe })).toBeNull();
  });

  it('says what to install when neither the system nor the registry has ffmpeg', () => {
    const ffmpeg = resolveTool('ffmpeg', { searchDirs: [], env: {}, bundled: false });
    expect(ffmpeg).toBeNull();
    expect(missingToolsMessage({ ffmpeg, ffprobe: null })).toBe(
      'ffmpeg and ffprobe not found: install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH; cameras cannot record until then',
    );
  });

  it('refuses a configured path that does not run', () => {
    expect(resolveTool('ffmpeg', { env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } })).toBeNull();
  });

  it('takes the system build by default when it is new enough', () => {
    const tool = resolveTool('ffmpeg', { env: { PATH: '/usr/bin' }, searchDirs: ['/usr/bin'] });
    if (tool) expect(tool.source).toBe('system');
  });
});
