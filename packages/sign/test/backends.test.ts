import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as noble from '../src/hmac-noble.js';
import * as node from '../src/hmac-node.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('both backends agree with node:crypto', () => {
  // Deterministic variety: lengths around the SHA-256 block size (64) and the HMAC key block.
  const lengths = [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 16_384, 100_000];
  it.each(lengths)('on a %i-byte message, split into text and byte parts', (length) => {
    const bytes = randomBytes(length);
    const text = 'héllo-ключ-🔑'.repeat((length % 7) + 1);
    const secret = `sk_${'é'.repeat(length % 70)}`;
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(text).update(bytes).digest('hex');
    expect(node.hmacHex(secret, [text, bytes])).toBe(expected);
    expect(noble.hmacHex(secret, [text, bytes])).toBe(expected);
  });

  it('on text around the 16 KB the Node backend hashes in one shot, alternating secrets, and lone surrogates', () => {
    const secrets = ['sk_a', `sk_${'b'.repeat(80)}`, 'sk_c'];
    const texts = [
      'a'.repeat(16_384 - 1),
      'a'.repeat(16_384),
      'a'.repeat(16_384 + 1), // ASCII at the limit
      'é'.repeat(8_192),
      'é'.repeat(8_193),
      '🔑'.repeat(4_096), // multi-byte at the limit
      'lone \ud800 surrogate \udfff',
      '',
    ];
    for (const [i, text] of texts.entries()) {
      const secret = secrets[i % secrets.length]!;
      const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(text).digest('hex');
      expect(node.hmacHex(secret, [text])).toBe(expected);
      expect(node.hmacHex(secret, ['m_1', text, Buffer.from('x')])).toBe(
        createHmac('sha256', Buffer.from(secret, 'utf8')).update('m_1').update(text).update('x').digest('hex'),
      );
    }
  });

  it('on secrets longer than the block size', () => {
    const secret = 'x'.repeat(200);
    const expected = createHmac('sha256', secret).update('m').digest('hex');
    expect(node.hmacHex(secret, ['m'])).toBe(expected);
    expect(noble.hmacHex(secret, ['m'])).toBe(expected);
  });
});

describe('package.json selects the backend by export condition', () => {
  const backendUnder = (conditions: string[]) =>
    execFileSync(
      process.execPath,
      [...conditions.map((c) => `--conditions=${c}`), '--input-type=module', '-e', "console.log((await import('#hmac')).backend)"],
      { cwd: pkg, encoding: 'utf8' },
    ).trim();

  it('uses node:crypto on Node and the pure backend under pay-noble (built package)', () => {
    expect(backendUnder([])).toBe('node');
    expect(backendUnder(['pay-noble'])).toBe('noble');
  });

  it('reaches no node: module from the default condition', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    const defaultHmac: string = manifest.imports['#hmac'].default;
    expect(defaultHmac).toBe('./dist/hmac-noble.js');
    // Walk the import graph of the built entry point as a browser bundler would resolve it.
    const seen = new Set<string>();
    const bare = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, spec] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
        if (spec!.startsWith('.')) walk(resolve(dirname(file), spec!));
        else if (spec === '#hmac') walk(join(pkg, defaultHmac));
        else bare.add(spec!);
      }
    };
    walk(join(pkg, manifest.exports['.'].default));
    expect(seen.size).toBeGreaterThan(5);
    expect([...bare].filter((s) => s.startsWith('node:') || !s.startsWith('@noble/hashes/'))).toEqual([]);
  });
});
