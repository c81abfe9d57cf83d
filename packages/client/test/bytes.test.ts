// Byte-exactness: what the server receives is exactly what was signed. The server records the raw
// bytes and the request target and recomputes every signature with node:crypto over them.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { bodyJson } from '../src/json.js';
import { hmac, MERCHANT, payinBody, SECRET, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = () => createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET });
const last = () => server.received[server.received.length - 1]!;

describe('bodies: the bytes received are the bytes signed', () => {
  const customer = (first_name: string, last_name: string, extra: Record<string, unknown> = {}) => ({
    ...(payinBody()['customer'] as object),
    first_name,
    last_name,
    ...extra,
  });
  it.each([
    ['non-ASCII names', customer('Zoë', '山田 太郎')],
    ['emoji and astral characters', customer('Ana 🙂', 'Łukasz 𝔘')],
    ['quotes, backslashes, control characters, U+2028', customer('O"Brien\\', 'Tab\tNew\nLine\u2028')],
    ['characters JSON may leave as they are: </script>, &, +', customer('</script>', 'A&B+C')],
  ])('%s', async (_label, c) => {
    const body = payinBody({ customer: c });
    const result = await client().payins.create(body as never);
    const req = last();
    expect(req.signatureOk).toBe(true);
    // The bytes are the JSON of the body, amount written as given.
    const expected = bodyJson({ reference_id: result.referenceId, ...body });
    expect(req.body.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(JSON.parse(req.body.toString('utf8')).customer).toEqual(c);
    const head = `${MERCHANT}${req.headers['x-timestamp']}POST${server.base}/v2/merchants/payins/`;
    expect(req.headers['x-signature']).toBe(hmac(Buffer.concat([Buffer.from(head), req.body])));
  });

  it('a body is sent with its length, never chunked', async () => {
    await client().payins.create(payinBody({ customer: customer('Zoë', 'Ünal') }) as never);
    const req = last();
    expect(req.headers['transfer-encoding']).toBeUndefined();
    expect(req.headers['content-length']).toBe(String(req.body.length));
  });

  it('the largest body the schema takes, in multi-byte characters (every string at its maximum)', async () => {
    // A user agent of 1,024 characters, two bytes each, and 2,048-character URLs: the longest each is.
    const agent = `Mozilla/5.0 ${'é'.repeat(1024 - 12)}`;
    const url = (path: string) => `https://shop.example/${path}/${'é'.repeat(2048 - 22 - path.length)}`;
    const body = payinBody({
      browser_data: { user_agent: agent, ip_address: '2001:db8::1' },
      redirect_urls: { success: url('ok'), fail: url('fail'), in_progress: url('wait') },
    });
    await client().payins.create(body as never);
    const req = last();
    expect(req.body.length).toBeGreaterThan(14_000);
    expect(req.signatureOk).toBe(true);
    const sent = JSON.parse(req.body.toString('utf8'));
    expect(sent.browser_data.user_agent).toBe(agent);
    expect([...sent.redirect_urls.fail]).toHaveLength(2048);
  });

  it('a string past its maximum is refused before sending, at its path', async () => {
    const before = server.received.length;
    const refused = await client()
      .payins.create(payinBody({ browser_data: { user_agent: 'u'.repeat(1025), ip_address: '2001:db8::1' } }) as never)
      .then(
        () => undefined,
        (error: unknown) => error as { errors?: { path: string; message: string }[] },
      );
    expect(refused?.errors).toEqual([{ path: 'browser_data.user_agent', message: 'must be at most 1024 characters' }]);
    expect(server.received.length).toBe(before);
  });

  it.each([
    ['10.50', '10.50'],
    ['0.1', '0.1'],
    ['1000000', '1000000'],
    // 22 significant digits, which no double holds: written as given (EUR allows the two decimals).
    ['12345678901234567890.10', '12345678901234567890.10'],
    [0.1, '0.1'],
    [25, '25'],
    [1e21, '1e+21'],
  ])('amount %j is written as %s', async (amount, written) => {
    await client().payins.create(payinBody({ payment: { amount, currency: 'EUR' } }) as never);
    expect(last().body.toString()).toContain(`"payment":{"amount":${written},"currency":"EUR"}`);
    expect(last().signatureOk).toBe(true);
  });

  it('bodyJson equals JSON.stringify wherever the amount is not a string', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), (payment, rest) => {
        const body = { ...rest, payment: typeof payment === 'string' ? { amount: 1 } : payment };
        expect(bodyJson(body)).toBe(JSON.stringify(body));
      }),
    );
  });
});

describe('URLs: the URL received is the URL signed', () => {
  const references = [
    'order 1001',
    'a&b=c',
    'path/like/ref',
    'what?',
    '100%',
    'hash#tag',
    'plus+sign',
    "it's (quoted) *star* !",
    'café-Ω',
    '注文-42',
    'emoji-🙂',
    '..',
    '.',
    '~_-.',
  ];
  it.each(references)('lookup by reference %j', async (reference) => {
    const pay = client();
    await pay.payins.create(payinBody({ reference_id: reference }) as never);
    const found = await pay.payins.getByReference(reference);
    const req = last();
    expect(req.signatureOk).toBe(true);
    expect(new URL(req.url).searchParams.get('reference_id')).toBe(reference);
    expect(req.url).toBe(`${server.base}/v2/merchants/payins/?reference_id=${rfc3986(reference)}`);
    expect(found.data.reference_id).toBe(reference);
  });

  it('lookup by id with characters that need encoding', async () => {
    const pay = client();
    for (const id of ['pi 1', 'pi/2', 'pi?3', 'pi%4', 'pi#5', 'π-6', "pi'7"]) {
      const error = await pay.payins.get(id).catch((e: unknown) => e);
      expect((error as { status?: number }).status).toBe(404); // the stand-in has no such id
      const req = last();
      expect(req.signatureOk).toBe(true);
      expect(req.url).toBe(`${server.base}/v2/merchants/payins/${rfc3986(id)}`);
      expect(decodeURIComponent(new URL(req.url).pathname.split('/').pop()!)).toBe(id);
    }
  });

  it('any well-formed reference arrives signed and decodes back (property)', async () => {
    const pay = client();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }), async (reference) => {
        await pay.payouts.getByReference(reference).catch(() => undefined);
        const req = last();
        expect(req.signatureOk).toBe(true);
        expect(new URL(req.url).searchParams.get('reference_id')).toBe(reference);
      }),
      { numRuns: 60 },
    );
  });
});

/** Percent-encoding of everything but RFC 3986 unreserved characters, computed independently. */
function rfc3986(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}
