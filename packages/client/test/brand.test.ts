// isPayError: every error class has its kind, `'api'` matches its subclasses as `instanceof ApiError`
// would, and the brand is what is checked (a look-alike without it is no PayError), so an error of
// another installed copy of the package or another realm is recognised where `instanceof` is not.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  InvalidRequestError,
  InvalidResponseError,
  isPayError,
  NetworkError,
  NotFoundError,
  OutcomeUnknownError,
  type PayErrorKind,
  TimeoutError,
} from '../src/index.js';

const response = (status: number) => ({ status, headers: new Headers(), body: '', truncated: false });
const KINDS: PayErrorKind[] = [
  'invalid_request',
  'api',
  'authentication',
  'not_found',
  'invalid_response',
  'network',
  'timeout',
  'outcome_unknown',
];

describe('isPayError', () => {
  const table = [
    [new InvalidRequestError('payins.create', [{ path: 'payment.amount', message: 'x' }]), 'invalid_request', ['invalid_request']],
    [new ApiError('payins.create', response(500)), 'api', ['api']],
    [new AuthenticationError('payins.get', response(401)), 'authentication', ['api', 'authentication']],
    [new NotFoundError('payins.get', response(404)), 'not_found', ['api', 'not_found']],
    [new InvalidResponseError('payins.get', response(200), 'HTML'), 'invalid_response', ['invalid_response']],
    [new NetworkError('payins.get', 'reset'), 'network', ['network']],
    [new TimeoutError('payins.get', 'no answer'), 'timeout', ['timeout']],
    [new OutcomeUnknownError('payins.create', 'r-1', new Date(0), 'lost'), 'outcome_unknown', ['outcome_unknown']],
  ] as const;

  it.each(table)('%s: its kind, and the kinds it matches', (error, kind, matches) => {
    expect(error.kind).toBe(kind);
    expect(isPayError(error)).toBe(true);
    for (const k of KINDS) expect(isPayError(error, k)).toBe((matches as readonly string[]).includes(k));
    // The kind is no own property: not in util.inspect's fields, nor in JSON.
    expect(Object.keys(error)).not.toContain('kind');
  });

  it('is false for anything without the brand, whatever it looks like', () => {
    for (const value of [
      undefined,
      null,
      'ApiError',
      42,
      new Error('x'),
      Object.assign(new Error('refused'), { name: 'ApiError', kind: 'api', status: 400 }),
      { kind: 'outcome_unknown', referenceId: 'r', decidableAt: new Date() },
      Object.create(null),
    ]) {
      expect(isPayError(value)).toBe(false);
      expect(isPayError(value, 'api')).toBe(false);
    }
  });

  it('recognises an error whose class this realm does not share (the brand is a registered symbol)', () => {
    // Another realm: its own Object and Error; only Symbol.for is shared across realms.
    const foreign = runInNewContext(`
      const brand = Symbol.for('@pay/client.error');
      class Foreign extends Error { get kind() { return 'outcome_unknown'; } }
      Foreign.prototype[brand] = true;
      new Foreign('lost')`);
    expect(foreign instanceof Error).toBe(false);
    expect(isPayError(foreign, 'outcome_unknown')).toBe(true);
    expect(isPayError(foreign, 'api')).toBe(false);
  });
});
