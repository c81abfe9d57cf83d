// The badge's colour thresholds as a table written out by hand (the README's rule, case by case,
// at every edge), and the badge itself: its text, its colour, its escaping, its boxes' widths.
import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../src/report/badge.js';
import { TONE_FILL, toneOf } from '../src/report/tone.js';

describe('tone thresholds', () => {
  // green: every case passed; orange: some failed, at least half passed; red: fewer than half
  // passed; grey: no case.
  it.each([
    [0, 0, 'grey'],
    [1, 1, 'green'],
    [43, 43, 'green'],
    [42, 43, 'orange'],
    [41, 43, 'orange'],
    [22, 43, 'orange'], // 22 of 43: more than half passed
    [21, 43, 'red'], // 21 of 43: fewer than half
    [2, 4, 'orange'], // exactly half
    [1, 4, 'red'],
    [1, 2, 'orange'],
    [0, 1, 'red'],
    [0, 55, 'red'],
    [54, 55, 'orange'],
    [999_999, 1_000_000, 'orange'],
  ] as const)('%i of %i passed is %s', (passed, total, tone) => {
    expect(toneOf(passed, total)).toBe(tone);
  });
});

/** The texts, the fills and the widths a badge draws. */
function parts(svg: string) {
  return {
    texts: [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
    fills: [...svg.matchAll(/<rect [^>]*fill="([^"]+)"/g)].map((m) => m[1]),
    width: Number(/<svg [^>]*width="([0-9.]+)"/.exec(svg)?.[1]),
    textLengths: [...svg.matchAll(/textLength="([0-9.]+)"/g)].map((m) => Number(m[1])),
    rectWidths: [...svg.matchAll(/<rect [^>]*width="([0-9.]+)"/g)].map((m) => Number(m[1])),
  };
}

describe('badge', () => {
  it.each([
    [41, 43, '#b04a00'],
    [43, 43, '#2b7a2b'],
    [3, 43, '#c0282d'],
    [0, 0, '#666666'],
  ])('shows %i/%i on %s, "conformance" on dark grey', (passed, total, fill) => {
    const svg = badgeSvg(passed, total);
    const p = parts(svg);
    expect(p.texts).toEqual(['conformance', `${passed}/${total}`]);
    expect(p.fills[0]).toBe(fill);
    expect(p.fills.slice(1)).toEqual(['#444444', '#444444']);
    expect(svg).toContain(`<title>conformance: ${passed}/${total}</title>`);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
    expect(svg).not.toMatch(/<script|href|url\(|on[a-z]+=/i);
    // The whole badge holds both texts with room to spare on each side.
    const [label, message] = p.textLengths as [number, number];
    expect(p.width).toBeGreaterThanOrEqual(label + message + 20);
  });

  it('matches the fill table of tone.ts for every tone', () => {
    expect(parts(badgeSvg(1, 1)).fills[0]).toBe(TONE_FILL.green);
    expect(parts(badgeSvg(1, 3)).fills[0]).toBe(TONE_FILL.red);
    expect(parts(badgeSvg(2, 3)).fills[0]).toBe(TONE_FILL.orange);
  });

  it('escapes its text: a label cannot open a tag', () => {
    const svg = badgeSvg(1, 2, '<b>"x" & \'y\'</b>');
    expect(svg).toContain('&lt;b&gt;&quot;x&quot; &amp; &apos;y&apos;&lt;/b&gt;');
    expect(svg).not.toContain('<b>');
  });

  it('grows with its text', () => {
    expect(parts(badgeSvg(1000, 1000)).width).toBeGreaterThan(parts(badgeSvg(1, 1)).width);
  });
});
