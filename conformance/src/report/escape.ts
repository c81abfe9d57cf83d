// Text made safe for markup: JUnit's XML, the SVG badge and the HTML pages all escape through this
// one function, so a case id or a diagnosis written by an implementation can never open a tag.

/** Escapes text for XML and HTML content and attributes; drops characters XML 1.0 cannot hold. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
