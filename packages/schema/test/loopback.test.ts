// "Is this a loopback host?" as a table. The oracle is the rule written out as literals: what
// never leaves this machine (localhost and *.localhost, 127.0.0.0/8, ::1, 127/8 mapped into IPv6),
// in the spellings the URL parser, Node's sockets and a Host header use; nothing else.
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHost } from '../src/index.js';
import { LOOPBACK_HOST_PATTERN } from '../src/loopback.js';

// [host, isLoopbackHost, the webhook_url pattern takes it (http://host/)]
const HOSTS: readonly (readonly [string, boolean, boolean])[] = [
  ['localhost', true, true],
  ['LOCALHOST', true, false],
  ['localhost.', true, false],
  ['shop.localhost', true, true],
  ['a.b.localhost', true, true],
  ['.localhost', false, false],
  ['localhost.example', false, false],
  ['notlocalhost', false, false],
  ['127.0.0.1', true, true],
  ['127.1.2.3', true, true],
  ['127.255.255.255', true, true],
  ['127.0.0.256', false, true], // no URL parser lets it through
  ['127.0.0', false, false],
  ['128.0.0.1', false, false],
  ['10.0.0.1', false, false],
  ['0.0.0.0', false, false],
  ['[::1]', true, true],
  ['[::ffff:7f00:1]', true, false],
  ['[::ffff:127.0.0.1]', true, false],
  ['[::ffff:a00:1]', false, false],
  ['[::]', false, false],
  ['[::2]', false, false],
  ['::1', false, false], // a host writes IPv6 in brackets
  ['[localhost]', false, false],
  ['', false, false],
  ['example.com', false, false],
];

// [address as Node's sockets write it, isLoopbackAddress]
const ADDRESSES: readonly (readonly [string, boolean])[] = [
  ['127.0.0.1', true],
  ['127.10.20.30', true],
  ['::1', true],
  ['::ffff:127.0.0.1', true],
  ['::FFFF:127.0.0.1', true],
  ['::ffff:7f00:1', true],
  ['::ffff:10.0.0.1', false],
  ['[::1]', false], // an address has no brackets
  ['localhost', false], // a name is not an address
  ['10.0.0.1', false],
  ['192.168.1.1', false],
  ['0.0.0.0', false],
  ['::', false],
  ['127.0.0.300', false],
  ['', false],
];

const PATTERN = new RegExp(`^http://${LOOPBACK_HOST_PATTERN}/$`);

describe('isLoopbackHost', () => {
  for (const [host, loopback, pattern] of HOSTS) {
    it(`${JSON.stringify(host)}: ${loopback ? 'loopback' : 'not loopback'}`, () => {
      expect(isLoopbackHost(host)).toBe(loopback);
    });
    it(`${JSON.stringify(host)}: the schema pattern ${pattern ? 'takes' : 'refuses'} it`, () => {
      expect(PATTERN.test(`http://${host}/`)).toBe(pattern);
    });
  }
  it('subdomains: false leaves out the names under .localhost, and only those', () => {
    for (const [host, loopback] of HOSTS) {
      const under = host.toLowerCase().replace(/\.$/, '').endsWith('.localhost') && host !== '.localhost';
      expect(isLoopbackHost(host, { subdomains: false })).toBe(loopback && !under);
    }
  });
});

describe('isLoopbackAddress', () => {
  for (const [address, loopback] of ADDRESSES) {
    it(`${JSON.stringify(address)}: ${loopback ? 'loopback' : 'not loopback'}`, () => {
      expect(isLoopbackAddress(address)).toBe(loopback);
    });
  }
});
