// Shape of the suite: every file valid against schema.json, every category present and covered,
// ids unique, mistakes distinct, string_to_sign_utf8 consistent with the bytes, verdicts and
// reasons consistent. The signatures themselves are recomputed in recompute.test.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, allVectors, fileName, loadSuite, vectorsDir } from './suite.mjs';

const schema = JSON.parse(readFileSync(join(vectorsDir, 'schema.json'), 'utf8'));
const suite = loadSuite();
const vectors = allVectors(suite);

const REASONS = ['missing_header', 'malformed_timestamp', 'expired', 'merchant_mismatch', 'malformed_signature', 'bad_signature'];
const fromB64 = (text) => new Uint8Array(Buffer.from(text, 'base64'));
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function decodesAsUtf8(bytes) {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
const inCategory = (category) => suite[category].vectors;
const byId = new Map(vectors.map(({ vector }) => [vector.id, vector]));

/** The sub-cases README.md and the brief name, by id; each must exist. */
const REQUIRED_IDS = {
  sign_request_get: [
    'payin-by-id',
    'payin-by-id-trailing-slash',
    'payout-by-id',
    'payout-by-id-trailing-slash',
    'payin-by-reference',
    'payin-by-reference-no-slash',
    'payout-by-reference',
    'payout-by-reference-no-slash',
    'query-percent-encoded-space',
    'query-plus-as-space',
    'query-percent-encoded-slash-uppercase',
    'query-percent-encoded-slash-lowercase',
    'query-repeated-key',
    'query-order-kept',
    'query-empty-value',
    'get-with-body-signs-empty',
  ],
  sign_request_get_v1: [
    'payin-by-id',
    'payin-by-id-trailing-slash',
    'payin-by-reference',
    'payin-by-reference-no-slash',
    'get-with-body-signs-empty',
  ],
  sign_request_post: [
    'payin-v2-pretty',
    'payin-v2-minified',
    'payin-v2-unicode-escaped',
    'payout-v2',
    'payin-v1-legacy-php',
    'payin-v2-crlf',
    'payout-v2-bom',
    'empty-body',
    'large-body-64kib',
    'non-ascii-body-cjk',
    'non-ascii-merchant-id',
    'non-ascii-secret-latin1-range',
    'non-ascii-secret-outside-latin1',
    'invalid-utf8-body',
  ],
  sign_request_collisions: ['merchant-timestamp-boundary-a', 'merchant-timestamp-boundary-b', 'url-body-boundary-a', 'url-body-boundary-b'],
  sign_simplified: ['basic', 'other-merchant', 'non-ascii-merchant-id', 'non-ascii-secret'],
  verify_webhook: [
    'valid-basic',
    'valid-non-ascii-body',
    'valid-empty-body',
    'tolerance-60s-past',
    'tolerance-60s-future',
    'expired-61s-past',
    'expired-61s-future',
    'tampered-body',
    'body-reserialised-pretty',
    'body-reserialised-minified',
    'url-trailing-slash-dropped',
    'url-query-dropped',
    'url-http-instead-of-https',
    'url-host-case',
    'wrong-secret',
    'merchant-mismatch',
    'missing-x-signature',
    'missing-x-timestamp',
    'missing-x-merchant-id',
    'empty-x-signature',
    'empty-x-timestamp',
    'empty-x-merchant-id',
    'malformed-timestamp-fraction',
    'malformed-timestamp-negative',
    'malformed-timestamp-leading-space',
    'malformed-timestamp-exponent',
    'malformed-timestamp-hex',
    'malformed-timestamp-trailing-letters',
    'malformed-timestamp-fullwidth-digits',
    'malformed-signature-63-hex',
    'malformed-signature-65-hex',
    'malformed-signature-non-hex',
    'malformed-signature-sha256-prefix',
    'malformed-signature-surrounding-spaces',
    'duplicate-x-signature',
    'duplicate-x-timestamp',
    'duplicate-x-merchant-id',
    'order-missing-before-malformed-timestamp',
    'order-malformed-timestamp-before-bad-signature',
    'order-expired-before-merchant-mismatch',
    'order-merchant-mismatch-before-malformed-signature',
    'order-expired-before-malformed-signature',
    'uppercase-signature',
  ],
  verify_request: [
    'valid-get-payin-by-id',
    'valid-get-payin-by-reference',
    'valid-post-create-payin',
    'valid-get-with-body-signed-empty',
    'get-signed-with-body',
    'method-lowercased',
    'url-trailing-slash-dropped',
    'expired-61s-past',
    'expired-61s-future',
    'malformed-timestamp-fraction',
    'malformed-signature-sha256-prefix',
    'missing-x-signature',
    'merchant-mismatch',
    'uppercase-signature',
  ],
};

describe('files', () => {
  it('holds exactly the seven category files, plus schema.json and package.json', () => {
    const json = readdirSync(vectorsDir)
      .filter((name) => name.endsWith('.json'))
      .sort();
    expect(json).toEqual([...Object.keys(CATEGORIES).map(fileName), 'package.json', 'schema.json'].sort());
  });

  it('README.md shows the current suite version', () => {
    const versions = new Set(Object.values(suite).map((file) => file.suite_version));
    expect(versions.size).toBe(1);
    const readme = readFileSync(join(vectorsDir, 'README.md'), 'utf8');
    expect(readme).toContain(`"suite_version": "${[...versions][0]}"`);
  });

  it('the schema compiles in strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  for (const [category, command] of Object.entries(CATEGORIES)) {
    it(`${fileName(category)} is valid against schema.json and declares its category and command`, () => {
      const file = suite[category];
      const ok = validate(file);
      expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toEqual([]);
      expect(ok).toBe(true);
      expect(file.category).toBe(category);
      expect(file.command).toBe(command);
      expect(file.$schema).toBe('./schema.json');
    });
  }

  it('the schema rejects what it must (a guard against a schema that accepts anything)', () => {
    const file = structuredClone(suite.sign_request_get);
    file.vectors[0].expected.headers['x-signature'] = file.vectors[0].expected.headers['x-signature'].toUpperCase();
    expect(validate(file)).toBe(false);
    const verify = structuredClone(suite.verify_webhook);
    verify.vectors[0].expected.reason = 'bad_signature'; // a valid verdict with a reason
    expect(validate(verify)).toBe(false);
    const wrongPrefix = structuredClone(suite.sign_simplified);
    wrongPrefix.vectors[0].id = 'sign_request_get/basic';
    expect(validate(wrongPrefix)).toBe(false);
    const extra = structuredClone(suite.verify_request);
    extra.vectors[0].input.cmd = 'verify_request';
    expect(validate(extra)).toBe(false);
    const open = structuredClone(suite.verify_webhook);
    delete open.vectors.find((v) => v.expected.verdict === 'acceptable').expected.acceptable;
    expect(validate(open)).toBe(false);
    const closed = structuredClone(suite.verify_webhook);
    closed.vectors[0].expected.acceptable = {
      valid: { requires: ['verify_webhook/valid-basic'] },
      invalid: { reasons: ['bad_signature'], requires: ['verify_webhook/valid-basic'] },
    };
    expect(validate(closed)).toBe(false);
  });
});

describe('ids and coverage', () => {
  it('ids are unique across the suite and prefixed by their category', () => {
    const ids = vectors.map(({ vector }) => vector.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { category, vector } of vectors) expect(vector.id.startsWith(`${category}/`), vector.id).toBe(true);
  });

  for (const category of Object.keys(CATEGORIES)) {
    it(`${category} has at least 6 vectors and every required sub-case`, () => {
      expect(inCategory(category).length).toBeGreaterThanOrEqual(6);
      for (const slug of REQUIRED_IDS[category]) expect(byId.has(`${category}/${slug}`), `${category}/${slug}`).toBe(true);
    });
  }

  it('every vector has a description and at least one flag', () => {
    for (const { vector } of vectors) {
      expect(vector.description.length, vector.id).toBeGreaterThan(10);
      expect(vector.flags.length, vector.id).toBeGreaterThan(0);
    }
  });

  it('the post bodies cover BOM, CRLF, empty, > 64 KiB and not-UTF-8', () => {
    const bodies = inCategory('sign_request_post').map((v) => fromB64(v.input.body_b64));
    expect(bodies.some((b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)).toBe(true);
    expect(bodies.some((b) => Buffer.from(b).includes('\r\n'))).toBe(true);
    expect(bodies.some((b) => b.length === 0)).toBe(true);
    expect(bodies.some((b) => b.length > 65536)).toBe(true);
    expect(bodies.some((b) => !decodesAsUtf8(b))).toBe(true);
  });

  it('pretty, minified and \\u-escaped forms of one JSON value have three different signatures', () => {
    const forms = ['payin-v2-pretty', 'payin-v2-minified', 'payin-v2-unicode-escaped'].map((slug) => byId.get(`sign_request_post/${slug}`));
    const values = forms.map((v) => JSON.stringify(JSON.parse(Buffer.from(v.input.body_b64, 'base64').toString('utf8'))));
    expect(new Set(values).size).toBe(1);
    expect(new Set(forms.map((v) => v.expected.headers['x-signature'])).size).toBe(3);
  });

  it('every mistake name of the README appears somewhere', () => {
    const names = new Set(vectors.flatMap(({ vector }) => (vector.mistakes ?? []).map((m) => m.name)));
    for (const name of [
      'url_trailing_slash_dropped',
      'url_trailing_slash_added',
      'url_path_only',
      'url_query_dropped',
      'body_reserialised',
      'body_signed_for_get',
      'method_lowercased',
      'secret_latin1',
      'body_latin1',
      'simplified_method_included',
      'simplified_fields_reordered',
    ])
      expect(names.has(name), name).toBe(true);
  });

  it('secret_latin1 appears for a Latin-1 secret and for one outside Latin-1', () => {
    const withMistake = vectors
      .filter(({ vector }) => vector.mistakes?.some((m) => m.name === 'secret_latin1'))
      .map(({ vector }) => vector.input.secret);
    expect(withMistake.some((s) => [...s].every((c) => c.codePointAt(0) <= 0xff))).toBe(true);
    expect(withMistake.some((s) => [...s].some((c) => c.codePointAt(0) > 0xff))).toBe(true);
  });

  for (const category of ['verify_webhook', 'verify_request']) {
    it(`${category} uses every reason code, valid and acceptable verdicts, and both tolerance edges`, () => {
      const list = inCategory(category);
      for (const reason of REASONS)
        expect(
          list.some((v) => v.expected.reason === reason),
          reason,
        ).toBe(true);
      expect(list.some((v) => v.expected.verdict === 'valid')).toBe(true);
      expect(list.some((v) => v.expected.verdict === 'acceptable')).toBe(true);
      const skew = (v) => Number(v.input.now) - Number(v.input.headers['x-timestamp']);
      const flagged = list.filter((v) => v.flags.includes('tolerance'));
      for (const [seconds, verdict] of [
        [60, 'valid'],
        [-60, 'valid'],
        [61, 'invalid'],
        [-61, 'invalid'],
      ]) {
        expect(
          flagged.some((v) => skew(v) === seconds && v.expected.verdict === verdict),
          `${seconds}s`,
        ).toBe(true);
      }
    });
  }

  it('verify_webhook has check-order cases, each flagged check_order', () => {
    expect(inCategory('verify_webhook').filter((v) => v.flags.includes('check_order')).length).toBeGreaterThanOrEqual(5);
  });

  it('webhooks are POSTs; verify_request has GETs and POSTs', () => {
    expect(inCategory('verify_webhook').every((v) => v.input.method === 'POST')).toBe(true);
    const methods = new Set(inCategory('verify_request').map((v) => v.input.method));
    expect([...methods].sort()).toEqual(['GET', 'POST']);
  });
});

describe('signing vectors', () => {
  const signing = vectors.filter(({ command }) => command.startsWith('sign_'));

  it('every mistake signature differs from the expected one and from the other mistakes', () => {
    for (const { vector } of signing) {
      const expected = Object.values(vector.expected.headers).at(-1);
      const signatures = vector.mistakes.map((m) => m.signature);
      expect(signatures, vector.id).not.toContain(expected);
      expect(new Set(signatures).size, vector.id).toBe(signatures.length);
      const names = vector.mistakes.map((m) => m.name);
      expect(new Set(names).size, vector.id).toBe(names.length);
    }
  });

  it('the signature header is the last of the three expected headers and echoes the input', () => {
    for (const { vector, command } of signing) {
      const sigHeader = command === 'sign_simplified' ? 'x-simplified-signature' : 'x-signature';
      expect(Object.keys(vector.expected.headers), vector.id).toEqual(['x-merchant-id', 'x-timestamp', sigHeader]);
      expect(vector.expected.headers['x-merchant-id'], vector.id).toBe(vector.input.merchant_id);
      expect(vector.expected.headers['x-timestamp'], vector.id).toBe(vector.input.timestamp);
    }
  });

  it('collision vectors come in flagged pairs naming their twin, same string, different input', () => {
    const list = inCategory('sign_request_collisions');
    expect(list.length % 2).toBe(0);
    for (const vector of list) {
      expect(vector.flags, vector.id).toContain('collision');
      const twins = list.filter((other) => other !== vector && vector.description.includes(other.id));
      expect(twins.length, vector.id).toBe(1);
      const [twin] = twins;
      expect(twin.description, twin.id).toContain(vector.id);
      expect(twin.string_to_sign_b64).toBe(vector.string_to_sign_b64);
      expect(twin.expected.headers['x-signature']).toBe(vector.expected.headers['x-signature']);
      expect(twin.input).not.toEqual(vector.input);
    }
  });
});

describe('strings to sign', () => {
  const withString = vectors.filter(({ vector }) => 'string_to_sign_b64' in vector);

  it('signing vectors always carry one', () => {
    for (const { vector, command } of vectors) {
      if (command.startsWith('sign_')) expect('string_to_sign_b64' in vector, vector.id).toBe(true);
    }
  });

  it('base64 fields are canonical standard base64', () => {
    for (const { vector } of vectors) {
      for (const text of [vector.input.body_b64, vector.string_to_sign_b64]) {
        if (text === undefined) continue;
        expect(Buffer.from(text, 'base64').toString('base64'), vector.id).toBe(text);
      }
    }
  });

  it('string_to_sign_utf8 is null exactly when the bytes are not valid UTF-8, and otherwise the same bytes', () => {
    let nulls = 0;
    for (const { vector } of withString) {
      const bytes = fromB64(vector.string_to_sign_b64);
      if (decodesAsUtf8(bytes)) {
        expect(typeof vector.string_to_sign_utf8, vector.id).toBe('string');
        expect(Buffer.from(vector.string_to_sign_utf8, 'utf8').equals(bytes), vector.id).toBe(true);
      } else {
        nulls += 1;
        expect(vector.string_to_sign_utf8, vector.id).toBeNull();
      }
    }
    expect(nulls).toBeGreaterThan(0); // the suite does contain a non-UTF-8 case
  });
});

describe('verification vectors', () => {
  const verifying = vectors.filter(({ command }) => command.startsWith('verify_'));

  it('reason is null iff the verdict is not invalid, and is a protocol reason code otherwise', () => {
    for (const { vector } of verifying) {
      const { verdict, reason } = vector.expected;
      if (verdict === 'invalid') expect(REASONS, vector.id).toContain(reason);
      else expect(reason, vector.id).toBeNull();
    }
  });

  it("an acceptable verdict says what makes each choice deliberate, in terms of this file's other vectors", () => {
    const open = verifying.filter(({ vector }) => vector.expected.verdict === 'acceptable');
    expect(open.length).toBeGreaterThan(0);
    for (const { category, vector } of open) {
      const { valid, invalid } = vector.expected.acceptable;
      const required = (ids) =>
        ids.map((id) => {
          expect(id.startsWith(`${category}/`), `${vector.id}: ${id}`).toBe(true);
          const other = byId.get(id);
          expect(other, `${vector.id}: ${id}`).toBeDefined();
          expect(other.expected.verdict, id).not.toBe('acceptable');
          return other;
        });
      // Accepting is deliberate when the verifier still verifies: it accepts the same request
      // signed in lowercase and refuses signatures that are wrong.
      const forValid = required(valid.requires);
      expect(
        forValid.some((v) => v.expected.verdict === 'valid'),
        vector.id,
      ).toBe(true);
      expect(
        forValid.some((v) => v.expected.reason === 'bad_signature'),
        vector.id,
      ).toBe(true);
      // Refusing is deliberate when the reason is about the signature and the lowercase twin passes.
      const forInvalid = required(invalid.requires);
      expect(
        forInvalid.some((v) => v.expected.verdict === 'valid'),
        vector.id,
      ).toBe(true);
      expect(
        invalid.reasons.every((r) => ['malformed_signature', 'bad_signature'].includes(r)),
        vector.id,
      ).toBe(true);
      expect(vector.mistakes).toEqual([]);
    }
  });

  it('every other verification vector names the verifier mistakes that change its answer, each with a different answer', () => {
    for (const { vector } of verifying) {
      if (vector.expected.verdict === 'acceptable') continue;
      expect(vector.mistakes.length, vector.id).toBeGreaterThan(0);
      const names = vector.mistakes.map((m) => m.name);
      expect(new Set(names).size, vector.id).toBe(names.length);
      const expected = { valid: vector.expected.verdict === 'valid', reason: vector.expected.reason };
      for (const m of vector.mistakes) expect(m.answer, `${vector.id} ${m.name}`).not.toEqual(expected);
    }
  });

  it('every verifier mistake of the README appears somewhere', () => {
    const names = new Set(verifying.flatMap(({ vector }) => vector.mistakes.map((m) => m.name)));
    const readme = readFileSync(join(vectorsDir, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('<!-- verifier-mistakes -->'), readme.indexOf('<!-- /verifier-mistakes -->'));
    const documented = [...table.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.length).toBeGreaterThan(20);
    expect([...names].sort()).toEqual([...documented].sort());
  });

  it('headers are lowercased and are strings', () => {
    for (const { vector } of verifying) {
      for (const [name, value] of Object.entries(vector.input.headers)) {
        expect(name, vector.id).toBe(name.toLowerCase());
        expect(typeof value, vector.id).toBe('string');
      }
    }
  });
});
