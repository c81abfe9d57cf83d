// Card data and credentials in a request body never reach what the sandbox shows, however the
// body spells them: a table of hostile spellings, each sent for real and looked for in every place
// a body is shown: the request log's JSON, the requests page, the `requests` command's output and
// the log lines. The command runs in this process (runInProcess), as the CLI's process runs it:
// that its process prints the same is commands.test.ts's, on the same command line.
import { describe, expect, it } from 'vitest';
import { maskJson } from '../src/masking.js';
import { call, signed, M1, sandboxForFile, type Started } from './helpers.js';
import { runInProcess } from './process.js';

let sb: Started;
sandboxForFile((s) => (sb = s));

/** [what, the raw body sent, strings that must never be shown, a string that shows it was masked]. */
const HOSTILE: [string, string, string[], string | undefined][] = [
  ['a card number with spaces', '{"reference_id":"4242 4242 4242 4242"}', ['4242 4242 4242 4242', '424242424242'], '••••4242'],
  ['a card number with dashes', '{"reference_id":"4242-4242-4242-4242"}', ['4242-4242-4242-4242'], '••••4242'],
  ['a card number with dots', '{"note":"card 5555.5555.5555.4444 ok"}', ['5555.5555.5555.4444'], '••••4444'],
  ['a card number with a JSON escape', '{"reference_id":"\\u0034242424242424242"}', ['424242424242', '\\u0034'], '••••4242'],
  [
    'a card number written all in escapes',
    `{"reference_id":"${[...'4242424242424242'].map((d) => `\\u00${d.charCodeAt(0).toString(16)}`).join('')}"}`,
    ['\\u0034\\u0032', '424242424242'],
    '••••4242',
  ],
  ['a card number as a JSON number', '{"note":4242424242424242}', ['424242424242'], '••••4242'],
  ['a card number as a key', '{"meta":{"4242424242424242":true}}', ['424242424242'], '••••4242'],
  ['a mistyped card number under pan', '{"card":{"pan":"4242424242424241"}}', ['424242424242424'], '••••4241'],
  ['a card number under card_number, grouped', '{"card_number":"4000 0000 0000 0002"}', ['4000 0000 0000 0002'], '••••0002'],
  ['cvv', '{"card":{"cvv":"8713"}}', ['8713'], '•••'],
  ['cvc as a number', '{"cvc":8713}', ['8713'], '•••'],
  ['csc as a number', '{"card":{"csc":8713}}', ['8713'], '•••'],
  ['CVV2 in capitals', '{"CVV2":"8713"}', ['8713'], '•••'],
  ['security_code', '{"payment":{"security_code":"8713"}}', ['8713'], '•••'],
  ['Card-Security-Code', '{"Card-Security-Code":"8713"}', ['8713'], '•••'],
  ['cvv escaped in its key', '{"\\u0063vv":"8713"}', ['8713'], '•••'],
  ['an expiry', '{"card":{"exp_month":"11","exp_year":"2031","expiry":"11/31"}}', ['2031', '11/31'], '•••'],
  [
    'URL credentials escaped as \\/ (PHP)',
    '{"webhook_url":"https:\\/\\/shopuser:hunter2pw@hooks.example\\/pay"}',
    ['hunter2pw', 'shopuser'],
    '***@hooks.example',
  ],
  [
    'a URL token escaped as \\/ and \\u0026',
    '{"webhook_url":"https:\\/\\/hooks.example\\/pay?shop=7\\u0026token=s3cr3tt0k3n"}',
    ['s3cr3tt0k3n'],
    'token=***',
  ],
  [
    'a URL written with \\u escapes for the scheme',
    '{"webhook_url":"https\\u003a\\u002f\\u002fshopuser:hunter2pw@hooks.example/pay?key=abc"}',
    ['hunter2pw', 'key=abc'],
    '***@hooks.example',
  ],
  ['a password by its key', '{"password":"hunter2pw","api_key":"k_live_123"}', ['hunter2pw', 'k_live_123'], '•••'],
  ['a body that is not JSON', 'card=4242424242424242&cvv=8713', ['4242424242424242', '8713'], 'not JSON'],
];

describe.each(HOSTILE)('%s', (_what, body, forbidden, marker) => {
  it('is masked in the request log, the requests page, the requests command and the log lines', async () => {
    const url = `${sb.url}/v2/merchants/payins/`;
    await call('POST', url, { headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body) }, body });
    // The request log's JSON.
    const log = await call('GET', `${sb.url}/_sandbox/requests?limit=1`);
    const shown: string = log.body[0].body;
    for (const f of forbidden) expect(shown, 'request log').not.toContain(f);
    if (marker !== undefined) expect(shown).toContain(marker);
    // The requests page: the body's block.
    const page = await call('GET', `${sb.url}/_sandbox/log`);
    const pre = /<pre class="text">([\s\S]*?)<\/pre>/.exec(page.text)?.[1] ?? '';
    expect(pre).not.toBe('');
    for (const f of forbidden) expect(pre, 'requests page').not.toContain(f.replace(/&/g, '&amp;'));
    // The command line, as a terminal shows it.
    const cli = await runInProcess(['requests', '--json', '--limit', '1', '--url', sb.url]);
    expect(cli.code).toBe(0);
    for (const f of forbidden) expect(JSON.parse(cli.stdout)[0].body, 'pay-sandbox requests').not.toContain(f);
    // The log lines never held a body; they still hold none of it.
    for (const f of forbidden) expect(sb.lines.join('\n'), 'log lines').not.toContain(f);
  });
});

describe('maskJson', () => {
  it('leaves ordinary values alone and keeps __proto__ a plain key', () => {
    const value = JSON.parse(
      '{"payment":{"amount":"10.50","currency":"EUR"},"phone":{"number":"4165550123"},"__proto__":{"x":1},"id":"order-1"}',
    );
    const masked = maskJson(value) as Record<string, unknown>;
    expect(JSON.stringify(masked)).toBe(JSON.stringify(value));
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
  });

  it('a deep body does not throw out of the request log', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const url = `${sb.url}/v2/merchants/payins/`;
    const answer = await call('POST', url, {
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, deep) },
      body: deep,
    });
    expect(answer.status).toBe(400);
    const log = await call('GET', `${sb.url}/_sandbox/requests?limit=1`);
    expect(log.body[0].status).toBe(400);
  });
});
