// A report directory is meant to be published: a case whose evidence holds a signing secret or a
// card number (in its diagnosis, what the implementation answered, its stderr, even its id) shows
// neither in summary.json, index.html or badge.svg, in any encoding the test computes itself; what
// looks like card data or a key is masked even when the command never knew it; and every text an
// implementation wrote reaches the page escaped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportDir } from '../src/cli/report-dir.js';
import { cardNumberOf, secretOf } from '../src/http/redact.js';
import { aCase, aRun, helloOf } from './report-runs.js';
import { tmp } from './helpers.js';

const SECRET = 'sk_test_3mF9qK2xV7pL0aZ8wR4tY6uN';
const PAN = '4242424242424242';
const context = { toolkit: { name: '@pay/conformance', version: '0.0.0' }, exit_code: 1 };

/** The three files of a report directory written for `run`, masking SECRET and PAN as a command does. */
function written(run: ReturnType<typeof aRun>, sensitive = [...secretOf(SECRET), ...cardNumberOf(PAN)]) {
  const dir = tmp();
  writeReportDir(dir, run, context, sensitive);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return { json: read('summary.json'), html: read('index.html'), svg: read('badge.svg') };
}

/** The forms a leak takes, computed here: as it is, base64, hex, percent-encoded, JSON-escaped, grouped. */
function forms(value: string): string[] {
  const b = Buffer.from(value);
  return [
    value,
    b.toString('base64').replace(/=+$/, ''),
    b.toString('hex'),
    [...b].map((x) => `%${x.toString(16).toUpperCase()}`).join(''),
    [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  ];
}

describe('a report directory masks', () => {
  it('the signing secret and the card number, wherever a case carries them, in every file', () => {
    const leaky = aCase('client_errors/leak', 'fail', {
      mistake: 'secret_in_error',
      diagnosis: `the SDK's error said: bad key ${SECRET} for card ${PAN.match(/.{4}/g)!.join(' ')}`,
      got: {
        outcome: 'error',
        message: `client {"secret": "${SECRET}"}`,
        paths: [Buffer.from(`{"pan":"${PAN}","csc":"123"}`).toString('base64'), encodeURIComponent(SECRET)],
        code: Buffer.from(SECRET).toString('hex'),
      },
      expected: { outcome: 'error', kind: 'api' },
      stderr: `Traceback: request {"card": {"pan": "${PAN}", "exp_month": "12", "csc": "123"}} signed with ${[...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}\n`,
    });
    const run = aRun([aCase('client_errors/ok', 'pass'), leaky], { hello: helloOf(`sdk ${SECRET}`) });
    const files = written(run);
    for (const [name, text] of Object.entries(files)) {
      for (const value of [SECRET, PAN]) for (const form of forms(value)) expect(text.includes(form), `${name} holds ${form}`).toBe(false);
      expect(text, name).not.toMatch(/4242[ -]?4242[ -]?4242[ -]?4242/);
    }
    // Masked, not dropped: the reader sees that something was there.
    expect(files.json).toContain('‹secret›');
    expect(files.json).toContain('‹card›');
    expect(files.html).toContain('‹secret›');
    // The security code, three digits, is masked by its name.
    expect(files.json).not.toMatch(/"csc\\?"\s*:\s*\\?"123/);
    expect(files.json).toContain('secret_in_error');
  });

  it('card data and keys the command never knew (another card, another key, a CVV by name)', () => {
    const otherPan = '5555 5555 5555 4444'; // Mastercard's test number, Luhn-valid
    const amex = '378282246310005';
    const otherKey = 'sk_live_51Hx9ZqLmN0pQrStUvWx';
    const c = aCase('client_bytes/x', 'fail', {
      diagnosis: `sent ${otherPan} and ${amex}, signed with ${otherKey}, cvv=987`,
      got: { card: { pan: '4000000000000002', cvc: 321, api_key: 'anything-at-all' } },
    });
    const { json, html } = written(aRun([c]), []);
    for (const text of [json, html]) {
      for (const leaked of ['5555 5555 5555 4444', amex, otherKey, '987', '4000000000000002', '321', 'anything-at-all']) {
        expect(text.includes(leaked), leaked).toBe(false);
      }
    }
  });

  it('leaves ordinary numbers alone: timestamps, amounts, ids, a hex signature', () => {
    const text =
      'x-timestamp 1732200000, at 1732200000123 ms, amount 1250.50, pi_4242abc, 942ab5a1f89429d1c1600b0ee60505430f9ddd8865d6b3e7f49ae5594ca388bf';
    const { json } = written(aRun([aCase('g/x', 'fail', { diagnosis: text })]), []);
    expect(JSON.parse(json).cases[0].evidence.diagnosis).toBe(text);
  });

  it('escapes what an implementation wrote: no tag of its reaches the page', () => {
    const hostile = '</pre></td><script>alert(1)</script><img src=x onerror=alert(2)>';
    const c = aCase(`g/${hostile}`, 'fail', { diagnosis: hostile, mistake: hostile, stderr: hostile });
    const { html, svg } = written(aRun([c], { hello: helloOf(hostile) }), []);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).not.toContain('<script');
  });
});
