// Judging one answer against its vector, without a child: signing answers (named mistakes, the
// byte where strings to sign part) and verification answers (verdicts, reasons, acceptable ones).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeBytes, firstDifference } from '../src/harness/difference.js';
import { judgeSign } from '../src/harness/judge-sign.js';
import { judgeVerify } from '../src/harness/judge-verify.js';
import type { SignVector, VerifyVector } from '../src/types.js';

const sts = Buffer.from('m_11732200000GEThttps://api.pay.example/v2/merchants/payins/pi_1/', 'utf8');
const sig = (b: Buffer) => createHmac('sha256', 'secret').update(b).digest('hex');
const dropped = Buffer.from(sts.toString('utf8').slice(0, -1), 'utf8');

const signVector: SignVector = {
  kind: 'sign',
  id: 'sign_request_get/x',
  description: 'x',
  flags: [],
  input: {},
  string_to_sign_b64: sts.toString('base64'),
  expected: { headers: { 'x-merchant-id': 'm_1', 'x-timestamp': '1732200000', 'x-signature': sig(sts) } },
  mistakes: [{ name: 'url_trailing_slash_dropped', description: 'signed the URL without its trailing slash', signature: sig(dropped) }],
};
const headers = (s: string) => ({ 'x-merchant-id': 'm_1', 'x-timestamp': '1732200000', 'x-signature': s });

describe('firstDifference', () => {
  it('finds the first differing byte and shows context', () => {
    const d = firstDifference(Buffer.from('abcdef'), Buffer.from('abcxef'))!;
    expect(d.offset).toBe(3);
    expect(d.expected_context).toBe('abc⟦def');
    expect(d.got_context).toBe('abc⟦xef');
  });
  it('handles one string being a prefix of the other, and equality', () => {
    expect(firstDifference(Buffer.from('abc/'), Buffer.from('abc'))).toMatchObject({ offset: 3, expected_length: 4, got_length: 3 });
    expect(firstDifference(Buffer.from('abc'), Buffer.from('abc'))).toBeNull();
  });
  it('escapes bytes that are not printable ASCII', () => {
    expect(escapeBytes(Buffer.from('a\r\n\xe9\\', 'latin1'))).toBe('a\\r\\n\\xe9\\\\');
  });
});

describe('judgeSign', () => {
  it('passes the exact headers', () => {
    expect(judgeSign(signVector, { case: 'x', headers: headers(sig(sts)) }).status).toBe('pass');
  });
  it('names a mistake the vector lists', () => {
    const j = judgeSign(signVector, { case: 'x', headers: headers(sig(dropped)) });
    expect(j).toMatchObject({ status: 'fail', mistake: 'url_trailing_slash_dropped' });
    expect(j.diagnosis).toContain('you signed the URL without its trailing slash');
  });
  it('says where the string to sign parts when the mistake is not a listed one', () => {
    const other = Buffer.from(sts.toString('utf8').replace('payins', 'payin'), 'utf8');
    const j = judgeSign(signVector, { case: 'x', headers: headers(sig(other)), string_to_sign_b64: other.toString('base64') });
    expect(j.status).toBe('fail');
    expect(j.first_difference?.offset).toBe(sts.indexOf('payins') + 5);
    expect(j.diagnosis).toMatch(/parts from the vector's at byte \d+/);
  });
  it('points at the key when the string to sign is right', () => {
    const j = judgeSign(signVector, { case: 'x', headers: headers('0'.repeat(64)), string_to_sign_b64: sts.toString('base64') });
    expect(j.diagnosis).toMatch(/string to sign is right/);
  });
  it('rejects uppercase hex and malformed signatures', () => {
    expect(judgeSign(signVector, { case: 'x', headers: headers(sig(sts).toUpperCase()) })).toMatchObject({
      status: 'fail',
      mistake: 'uppercase_hex',
    });
    expect(judgeSign(signVector, { case: 'x', headers: headers('xyz') }).diagnosis).toMatch(/not 64 hexadecimal/);
  });
  it('reports other headers and a missing headers object', () => {
    expect(judgeSign(signVector, { case: 'x', headers: { ...headers(sig(sts)), 'x-timestamp': '1' } }).diagnosis).toMatch(/x-timestamp/);
    expect(judgeSign(signVector, { case: 'x' }).status).toBe('error');
  });
  it('treats "unsupported" as a skip and any other error as an error', () => {
    expect(judgeSign(signVector, { case: 'x', error: 'unsupported' }).status).toBe('skip');
    expect(judgeSign(signVector, { case: 'x', error: 'boom' }).status).toBe('error');
  });
});

describe('judgeVerify', () => {
  const v = (verdict: VerifyVector['expected']['verdict'], reason: string | null): VerifyVector => ({
    kind: 'verify',
    id: 'verify_webhook/x',
    description: 'signed 61 s ago',
    flags: ['tolerance', 'expired'],
    input: {},
    expected: { verdict, reason },
    mistakes: [],
  });
  it('passes the right verdict and reason', () => {
    expect(judgeVerify(v('invalid', 'expired'), { valid: false, reason: 'expired' }).status).toBe('pass');
    expect(judgeVerify(v('valid', null), { valid: true, reason: null }).status).toBe('pass');
  });
  it('gives the description and flags for a wrong verdict', () => {
    const j = judgeVerify(v('invalid', 'expired'), { valid: true, reason: null });
    expect(j.status).toBe('fail');
    expect(j.diagnosis).toContain('signed 61 s ago');
    expect(j.diagnosis).toContain('tolerance, expired');
    expect(j.reason_mismatch).toBeUndefined();
  });
  it('reports a reason mismatch separately', () => {
    const j = judgeVerify(v('invalid', 'expired'), { valid: false, reason: 'bad_signature' });
    expect(j).toMatchObject({ status: 'fail', reason_mismatch: { expected: 'expired', got: 'bad_signature' } });
  });
  it('lets either verdict pass when acceptable and records the choice', () => {
    expect(judgeVerify(v('acceptable', null), { valid: false, reason: 'malformed_signature' })).toMatchObject({
      status: 'pass',
      chosen_verdict: 'invalid',
    });
    expect(judgeVerify(v('acceptable', null), { valid: true, reason: null })).toMatchObject({ status: 'pass', chosen_verdict: 'valid' });
  });
  it('calls an answer without a boolean verdict an error', () => {
    expect(judgeVerify(v('valid', null), { valid: 'yes' }).status).toBe('error');
  });
});
