// A refused request's error says what the service said: its reason, its hint (the likely mistake)
// and a 400's field paths, as fields and in the message, from a real @pay/sandbox over real HTTP;
// and, from a scripted server, that what a body can put there is bounded and never a secret.
import { inspect } from 'node:util';
import { type RunningSandbox, startSandbox } from '@pay/sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, AuthenticationError, createClient, isPayError, NotFoundError } from '../src/index.js';
import { sandboxClient, TOLERANCE } from './helpers/sandbox.js';
import { json, MERCHANT as SCRIPTED_MERCHANT, SECRET, startServer, type TestServer } from './helpers/server.js';
import * as bodies from './helpers/server.js';

const M1 = { id: 'm_1', secret: 'sk_m1_first-merchant-secret' };
const M2 = { id: 'm_2', secret: 'sk_m2_second-merchant-secret' };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

/** Everything an error shows: its message, stack, inspect output (hidden fields too) and JSON. */
const everything = (error: unknown) =>
  [String(error), (error as Error).stack, inspect(error, { showHidden: true, depth: Infinity }), JSON.stringify(error)].join('\n');

describe('against the real sandbox', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    // Two merchants, so that one can sign with the other's secret.
    sandbox = await startSandbox({ merchants: [M1, M2], toleranceSeconds: TOLERANCE });
  });
  afterAll(() => sandbox.close());

  it("another merchant's secret: AuthenticationError whose hint names that merchant, in the message too", async () => {
    const pay = sandboxClient(sandbox, { id: M1.id, secret: M2.secret }, { retries: 0 });
    const error = (await failure(pay.payins.get('pi_missing'))) as AuthenticationError;
    expect(isPayError(error, 'authentication')).toBe(true);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.code).toBe('bad_signature');
    expect(error.reason).toMatch(/x-signature/);
    expect(error.hint).toMatch(/^the signature matches the secret of merchant m_2\b/);
    expect(error.hint).toContain('m_1');
    expect(error.errors).toEqual([]);
    expect(error.message).toBe(`payins.get: the service answered 401: bad_signature: ${error.reason} — hint: ${error.hint}`);
    // What the service said is the body's own: the fields are read from it, not made up.
    const body = JSON.parse(error.response.body) as { error: { message: string; hint: string } };
    expect(error.reason).toBe(body.error.message);
    expect(error.hint).toBe(body.error.hint);
    for (const secret of [M1.secret, M2.secret]) expect(everything(error)).not.toContain(secret);
  });

  it("a plain wrong secret: the reason as a field and in the message, and the sandbox's hint that the secret is likeliest", async () => {
    const pay = sandboxClient(sandbox, { id: M1.id, secret: 'sk_not_anyones_secret' }, { retries: 0 });
    const error = (await failure(pay.payouts.getByReference('r-1'))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('bad_signature');
    expect(error.reason).toBe((JSON.parse(error.response.body) as { error: { message: string } }).error.message);
    expect(error.message).toContain(`401: bad_signature: ${error.reason}`);
    expect(error.hint).toBe(JSON.parse(error.response.body).error.hint);
    expect(error.hint).toMatch(
      new RegExp(
        `^no common signing mistake matches .*: the secret is most likely not merchant ${M1.id}'s; sign with the one this sandbox was started with`,
      ),
    );
    expect(error.message).toContain(` — hint: no common signing mistake matches`);
    for (const secret of ['sk_not_anyones_secret', M1.secret, M2.secret]) expect(everything(error)).not.toContain(secret);
  });

  it('a 400: the field paths as errors and in the message', async () => {
    // webhook_url passes the schema (checked before sending) but names the sandbox itself, which
    // only the service can tell: a real 400 with a field path.
    const pay = sandboxClient(sandbox, M1, { retries: 0 });
    const error = (await failure(pay.payins.create(bodies.payinBody({ webhook_url: `${sandbox.url}/hooks` }) as never))) as ApiError;
    expect(isPayError(error, 'api')).toBe(true);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    // What the sandbox said, read from the raw body: the error must carry exactly that.
    const said = JSON.parse(error.response.body).error as { message: string; errors: { path: string; message: string }[] };
    expect(said.message).toMatch(/^webhook_url /);
    expect(error.reason).toBe(said.message);
    expect(error.errors).toEqual(said.errors);
    expect(error.errors.map((e) => e.path)).toEqual(['webhook_url']);
    expect(error.message).toContain(`400: invalid_request: ${said.message} — webhook_url: ${said.errors[0]?.message}`);
  });

  it('a 404: NotFoundError with the reason', async () => {
    const error = (await failure(sandboxClient(sandbox, M1).payins.get('pi_missing'))) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('not_found');
    expect(error.reason).toBe((JSON.parse(error.response.body) as { error: { message: string } }).error.message);
    expect(error.message).toContain(`404: not_found: ${error.reason}`);
  });
});

describe('what a body can put in an error is bounded', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.next.length = 0;
  });
  const client = () => createClient({ baseUrl: server.base, merchantId: SCRIPTED_MERCHANT, secret: SECRET, retries: 0 });

  it('a huge reason, hint and error list, with line breaks and escapes: cut, on one line', async () => {
    server.next.push((_req, res) =>
      json(res, 400, {
        error: {
          code: 'invalid_request',
          message: `bad\nforged log line ${'r'.repeat(10_000)}`,
          hint: `\u001b[31mred\u001b[0m ${'h'.repeat(10_000)}`,
          errors: Array.from({ length: 1000 }, (_, i) => ({ path: `items.${i}`, message: 'x'.repeat(300) })),
        },
      }),
    );
    const error = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(error.reason?.length).toBeLessThanOrEqual(301);
    expect(error.reason?.startsWith('bad forged log line r')).toBe(true);
    expect(error.hint?.length).toBeLessThanOrEqual(501);
    expect(error.hint?.startsWith(' [31mred [0m h')).toBe(true);
    expect(error.errors).toHaveLength(20);
    expect(error.errors[19]?.path).toBe('items.19');
    expect(error.message).not.toMatch(/\p{Cc}/u);
    expect(error.message).toContain('and 995 more');
    expect(error.message.length).toBeLessThan(3000);
  });

  it('a reason cut inside an emoji is cut before it', async () => {
    server.next.push((_req, res) => json(res, 403, { error: { code: 'forbidden', message: `${'r'.repeat(299)}😀 and more` } }));
    const error = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(error.reason).toBe(`${'r'.repeat(299)}…`);
    expect(error.message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no half of a pair
  });

  it('odd shapes: a hint that is not a string, errors that are not a list, items without a message', async () => {
    server.next.push((_req, res) =>
      json(res, 400, { error: { code: 'invalid_request', message: 'bad', hint: { a: 1 }, errors: [null, 7, { path: 3, message: 'm' }] } }),
    );
    const error = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(error.hint).toBeUndefined();
    expect(error.errors).toEqual([{ path: '', message: 'm' }]);
    expect(error.message).toBe('payins.get: the service answered 400: invalid_request: bad — m');
    server.next.push((_req, res) => json(res, 409, { error: { code: 'conflict', message: 'no', errors: 'many' } }));
    const other = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(other.errors).toEqual([]);
    expect(other.message).toBe('payins.get: the service answered 409: conflict: no');
  });
});
