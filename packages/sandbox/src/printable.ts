// Text for a terminal: merchants choose some of what the sandbox prints (a reference id, a webhook
// URL, a path), and a terminal must show it rather than obey it.

// C0 and C1 controls (an escape sequence, or C1's single-byte CSI U+009B, can rewrite a terminal),
// and the bidirectional marks and overrides that make text read other than it is.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A value as text with every control character and bidi override written as an escape (`\x1b`, `\u202e`). */
export function printable(value: unknown): string {
  return String(value).replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
