import { ALARM_STATUS_COLOURS, DEVICE_STATUS_COLOURS } from '@sitewatch/contracts/devices';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio, labelOn, overlay, readableOn } from './contrast.ts';

const LIGHT_PAPER = '#ffffff';
const DARK_PAPER = '#1b222c';
const HUES = [
  ...Object.values(ALARM_STATUS_COLOURS),
  ...Object.values(DEVICE_STATUS_COLOURS),
  // SPEC 9 ticket statuses and the default priority grey, and the yellow the audit found on MINOR
  '#ff8a00',
  '#00b7c2',
  '#9a55f2',
  '#4bc177',
  '#808080',
  '#ffeb3b',
];

describe('status colours', () => {
  it('computes WCAG contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('draws every status hue as text that passes AA on both themes', () => {
    for (const hue of HUES) {
      expect(contrastRatio(readableOn(hue, LIGHT_PAPER), LIGHT_PAPER), `${hue} on light`).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(readableOn(hue, DARK_PAPER), DARK_PAPER), `${hue} on dark`).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('keeps a hue that already passes, and only darkens one that does not', () => {
    expect(readableOn('#c62828', LIGHT_PAPER)).toBe('#c62828');
    const yellow = readableOn('#f9a825', LIGHT_PAPER);
    expect(yellow).not.toBe('#f9a825');
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(yellow.slice(i, i + 2), 16)) as [number, number, number];
    expect(r).toBeGreaterThan(b); // still a yellow-orange, not a grey
    expect(g).toBeGreaterThan(b);
  });

  it('sees a translucent tint on its background, as a hovered or selected row shows', () => {
    expect(overlay('#1b222c', 'rgba(255, 255, 255, 0.16)')).toBe('#3f454e');
    expect(overlay('#ffffff', 'rgba(0, 0, 0, 0.5)')).toBe('#808080');
    expect(overlay('#ffffff', '#000000')).toBe('#ffffff');
  });

  it('labels filled chips in black or white so that the label passes AA', () => {
    for (const hue of HUES) expect(contrastRatio(labelOn(hue), hue), hue).toBeGreaterThanOrEqual(AA_TEXT);
  });
});
