// Where an implementation's string to sign parts from the vector's, shown so a person sees the byte:
// the bytes escaped for display, with some context either side.
import type { FirstDifference } from '../types.js';

/** Bytes for display: printable ASCII as is, everything else escaped. */
export function escapeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

const CONTEXT = 20;

/** Where two byte strings part; null when they are equal. */
export function firstDifference(expected: Uint8Array, got: Uint8Array): FirstDifference | null {
  const n = Math.min(expected.length, got.length);
  let i = 0;
  while (i < n && expected[i] === got[i]) i++;
  if (i === n && expected.length === got.length) return null;
  const from = Math.max(0, i - CONTEXT);
  const show = (b: Uint8Array): string => {
    const head = escapeBytes(b.subarray(from, i));
    const tail = i < b.length ? escapeBytes(b.subarray(i, i + CONTEXT)) : '';
    return `${from > 0 ? '…' : ''}${head}⟦${tail}${i + CONTEXT < b.length ? '…' : ''}`;
  };
  return {
    offset: i,
    expected_length: expected.length,
    got_length: got.length,
    expected_context: show(expected),
    got_context: show(got),
  };
}

/** The first difference in words, with both strings around it. */
export function describeDifference(d: FirstDifference): string {
  const end =
    d.offset >= d.got_length ? 'yours stops there' : d.offset >= d.expected_length ? 'yours goes on after the end' : 'they differ there';
  return (
    `your string to sign parts from the vector's at byte ${d.offset} (${end}; expected ${d.expected_length} bytes, got ${d.got_length}; ⟦ marks the byte):\n` +
    `    expected: ${d.expected_context}\n` +
    `    got:      ${d.got_context}`
  );
}
