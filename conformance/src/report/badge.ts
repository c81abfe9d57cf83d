// The badge an SDK author puts in a README: "conformance | 41/43", the count coloured by tone.ts.
// Plain SVG 1.1: two boxes and two texts, no script, no link, no id (two badges inlined in one
// page cannot clash), nothing fetched. The widths come from a table of Verdana's advances at
// 11 px, and each text is given its width (textLength), so whatever font the viewer has, the text
// fills its box and never spills out of it.
import { xmlEscape } from './escape.js';
import { TONE_FILL, toneOf } from './tone.js';

/** Verdana's advance widths at 11 px, rounded to a tenth, for the characters a badge shows. */
const ADVANCE: Record<string, number> = {
  ' ': 3.9,
  '/': 4.9,
  '.': 3.5,
  ':': 4.6,
  '-': 4.6,
  i: 3.0,
  j: 3.8,
  l: 3.0,
  f: 3.9,
  t: 4.3,
  r: 4.7,
  s: 5.7,
  c: 5.8,
  z: 5.8,
  k: 6.5,
  v: 6.5,
  x: 6.5,
  y: 6.5,
  e: 6.6,
  a: 6.7,
  o: 6.7,
  m: 10.7,
  w: 9.0,
};
/** Digits are 7.0; lowercase letters not listed about 6.9; anything else (capitals, symbols) 7.5. */
function advance(ch: string): number {
  if (ch in ADVANCE) return ADVANCE[ch]!;
  if (ch >= '0' && ch <= '9') return 7.0;
  return ch >= 'a' && ch <= 'z' ? 6.9 : 7.5;
}

/** The width of a text at 11 px Verdana, to a tenth of a pixel. */
function textWidth(text: string): number {
  return Math.round([...text].reduce((w, ch) => w + advance(ch), 0) * 10) / 10;
}

/** Space on either side of each text. */
const PAD = 6;
const HEIGHT = 20;

/** The badge for `passed` out of `total` cases: "conformance | passed/total". */
export function badgeSvg(passed: number, total: number, label = 'conformance'): string {
  const message = `${passed}/${total}`;
  const [lt, mt] = [textWidth(label), textWidth(message)];
  const lw = Math.ceil(lt + 2 * PAD);
  const mw = Math.ceil(mt + 2 * PAD);
  const width = lw + mw;
  const fill = TONE_FILL[toneOf(passed, total)];
  const title = xmlEscape(`${label}: ${message}`);
  // Rounded outside, square where the two boxes meet: the message's colour rounded at full width,
  // the label's rounded over it, and a strip squaring the label's right edge.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">
<title>${title}</title>
<rect width="${width}" height="${HEIGHT}" rx="3" fill="${fill}"/>
<rect width="${lw}" height="${HEIGHT}" rx="3" fill="#444444"/>
<rect x="${lw - 4}" width="4" height="${HEIGHT}" fill="#444444"/>
<g fill="#ffffff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="11" text-anchor="middle">
<text x="${lw / 2}" y="14" textLength="${lt}" lengthAdjust="spacingAndGlyphs">${xmlEscape(label)}</text>
<text x="${lw + mw / 2}" y="14" textLength="${mt}" lengthAdjust="spacingAndGlyphs">${xmlEscape(message)}</text>
</g>
</svg>
`;
}
