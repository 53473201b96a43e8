import { describe, expect, it } from 'vitest';
import { afterLiveFailure, codecOf } from './MsePlayer.tsx';

const box = (type: string, body: number[]) => {
  const size = 8 + body.length;
  return [(size >>> 24) & 255, (size >>> 16) & 255, (size >>> 8) & 255, size & 255, ...[...type].map((c) => c.charCodeAt(0)), ...body];
};

describe('codecOf', () => {
  it('reads the H.264 profile, constraints and level of an init segment for the MSE codec string', () => {
    // avcC: version 1, profile High (0x64), constraints 0x00, level 3.1 (0x1f)
    const init = new Uint8Array([...box('ftyp', [0x69, 0x73, 0x6f, 0x6d]), ...box('moov', box('avcC', [1, 0x64, 0x00, 0x1f, 0xff]))]);
    expect(codecOf(init)).toBe('avc1.64001f');
  });
  it('names H.265 for an hvcC record and nothing for an unknown codec', () => {
    expect(codecOf(new Uint8Array(box('moov', box('hvcC', [1, 2, 3]))))).toMatch(/^hvc1\./);
    expect(codecOf(new Uint8Array(box('moov', box('mp4a', [1, 2, 3]))))).toBeNull();
  });
});

describe('afterLiveFailure', () => {
  it('tries a dropped stream again, also before its first frame, and a stream that played', () => {
    expect(afterLiveFailure({ played: false, dropped: true, quickDrops: 1 })).toBe('retry');
    expect(afterLiveFailure({ played: true, dropped: false, quickDrops: 1 })).toBe('retry');
    expect(afterLiveFailure({ played: true, dropped: true, quickDrops: 2 })).toBe('retry');
  });
  it('plays HLS when this browser cannot play the stream, or after three quick drops in a row', () => {
    expect(afterLiveFailure({ played: false, dropped: false, quickDrops: 1 })).toBe('hls');
    expect(afterLiveFailure({ played: false, dropped: true, quickDrops: 3 })).toBe('hls');
    expect(afterLiveFailure({ played: true, dropped: true, quickDrops: 3 })).toBe('hls');
  });
});
