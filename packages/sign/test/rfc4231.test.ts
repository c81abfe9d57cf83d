// RFC 4231 HMAC-SHA256 test cases whose keys are valid UTF-8 (the secret is a string, encoded as
// UTF-8), checked against each backend directly. Values as printed in the RFC, and rechecked with
// `openssl dgst -sha256 -mac HMAC` and Python's hmac module.
import { describe, expect, it } from 'vitest';
import * as noble from '../src/hmac-noble.js';
import * as node from '../src/hmac-node.js';

const cases = [
  {
    name: 'RFC 4231 test case 1',
    key: '\x0b'.repeat(20),
    data: 'Hi There',
    mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  },
  {
    name: 'RFC 4231 test case 2',
    key: 'Jefe',
    data: 'what do ya want for nothing?',
    mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  },
  {
    name: 'a common check value (Python hmac)',
    key: 'key',
    data: 'The quick brown fox jumps over the lazy dog',
    mac: 'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
  },
];

describe.each([noble, node])('$backend backend', (impl) => {
  it.each(cases)('$name', ({ key, data, mac }) => {
    expect(impl.hmacHex(key, [data])).toBe(mac);
    // The same bytes split into parts, as text and as bytes, give the same MAC.
    const bytes = new TextEncoder().encode(data);
    expect(impl.hmacHex(key, [data.slice(0, 3), bytes.subarray(3)])).toBe(mac);
  });
});
