/**
 * Status colours users know by hue (SPEC 9: OPEN orange, CRITICAL red, …) drawn so that their text passes WCAG 2.2
 * AA in either theme: as text, the hue is darkened (light theme) or lightened (dark theme) until it stands 4.5:1
 * on the page; as a filled chip, the hue stays and the label is black or white, whichever stands out more.
 */

export const AA_TEXT = 4.5;

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const mix = (rgb: Rgb, toward: number, t: number): Rgb => rgb.map((c) => c + (toward - c) * t) as Rgb;

/** The hue as text on `background`: mixed toward black or white just enough to reach `min`. */
export function readableOn(hue: string, background: string, min = AA_TEXT): string {
  const rgb = parseHex(hue);
  const bg = parseHex(background);
  if (!rgb || !bg) return hue;
  if (contrastRatio(hue, background) >= min) return toHex(rgb);
  const toward = luminance(bg) > 0.5 ? 0 : 255;
  for (let step = 1; step <= 20; step++) {
    const candidate = toHex(mix(rgb, toward, step / 20));
    if (contrastRatio(candidate, background) >= min) return candidate;
  }
  return toward === 0 ? '#000000' : '#ffffff';
}

/**
 * The colour seen where a translucent layer (`rgba(r, g, b, a)`, as MUI's hover and selection tints) lies on
 * `background`; `background` itself when the layer is not of that form.
 */
export function overlay(background: string, layer: string): string {
  const bg = parseHex(background);
  const match = /^rgba\(\s*(\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\s*\)$/.exec(layer.trim());
  if (!bg || !match) return background;
  const [r, g, b, a] = match.slice(1).map(Number) as [number, number, number, number];
  return toHex(bg.map((c, i) => c + (([r, g, b][i] as number) - c) * a) as Rgb);
}

/** The label colour of a chip filled with the hue. */
export const labelOn = (fill: string) => (contrastRatio('#000000', fill) >= contrastRatio('#ffffff', fill) ? '#000000' : '#ffffff');

/** A filled chip of a status colour: the hue itself with a readable label. */
export const filledChip = (hue: string) => ({ bgcolor: hue, color: labelOn(hue) });
