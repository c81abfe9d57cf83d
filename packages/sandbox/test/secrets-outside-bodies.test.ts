// Secrets and card data outside request bodies never leave the sandbox: the request target (path
// and query, in any spelling), headers, and the sandbox's own sentences that quote them (a 400's
// field errors, a 401's hint, a 404's message and hint). Each hostile request of the table is sent
// for real, over loopback; then every place that shows it is read over HTTP or from the command
// line (the caller's answer, the admin API's request log, the requests page, the log lines, and the
// `pay-sandbox requests` command, run in this process as its process runs it: that the process
// prints the same is commands.test.ts's), and checked by an oracle that does not share the sandbox's
// masking code: none of the planted strings appears in any of them, however it is spelled there
// (percent-encoded, `+` for a space, HTML entities, card digits grouped), and the parts that are
// not secret (the path, the names of parameters, a reference id) still do.
import { describe, expect, it } from 'vitest';
import { maskHeader, maskJson, maskText } from '../src/masking.js';
import { call, M1, payinBody, post, raw, sandboxForFile, signed, type Started } from './helpers.js';
import { runInProcess } from './process.js';

let sb: Started;
sandboxForFile((s) => (sb = s));

/** Every spelling of a text a reader could decode: as is, HTML-unescaped, percent-decoded (`+` a space), repeatedly. */
function readings(text: string): string[] {
  const unescaped = text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  const out = [text, unescaped];
  let decoded = unescaped;
  for (let i = 0; i < 3; i++) {
    decoded = decoded.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    out.push(decoded);
  }
  // Card digits as a reader joins them: any spaces, dots, dashes or pluses between digits dropped.
  out.push(...out.map((t) => t.replace(/(?<=\d)[\s.+-]+(?=\d)/g, '')));
  return out;
}

/** The planted strings found in a text, in any of its readings. */
function leaked(text: string, planted: readonly string[]): string[] {
  const all = readings(text);
  return planted.filter((p) => all.some((t) => t.includes(p)));
}

const PAN = {
  visa: '4242424242424242',
  master: '5555555555554444',
  visa2: '4000056655665556',
  amex: '378282246310005',
  discover: '6011111111111117',
};
const group = (pan: string, sep: string) => pan.match(/.{1,4}/g)!.join(sep);
const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');

/** A hostile request: how it is sent, what must never be shown, what must still be. */
interface Case {
  what: string;
  /** Sends it; the texts of the answers the caller got. */
  send: () => Promise<string[]>;
  /** Never shown, anywhere. A card number is planted as its digits and its first 12 (any grouping is found). */
  planted: string[];
  /** Still shown in the request log (or, for an admin call, the log lines). */
  kept: string[];
  /** An admin call: in the log lines, not the request log. */
  admin?: boolean;
}

/** A signed GET of a raw target (sent exactly as written). */
async function signedGet(target: string, sign = target, headers: [string, string][] = []): Promise<string[]> {
  const answer = await raw(sb.url, {
    method: 'GET',
    path: target,
    headers: [...Object.entries(signed(M1, 'GET', `${sb.url}${sign}`)), ...headers],
  });
  return [answer.text];
}

/** An unsigned request of a raw target. */
async function plain(method: string, target: string, headers: [string, string][] = [], body?: string): Promise<string[]> {
  const answer = await raw(sb.url, { method, path: target, headers, ...(body === undefined ? {} : { body }) });
  return [answer.text];
}

/** A card payin's push address, as a path (`/card-proxy/v1/push/<token>/`), and its token. */
async function pushAddress(): Promise<{ path: string; token: string }> {
  const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card' }));
  const path = new URL(created.body.next_action.url).pathname;
  return { path, token: /\/push\/([^/]+)\//.exec(path)![1]! };
}

const card = (pan: string) => [pan, pan.slice(0, 12)];
const BY_REFERENCE = '/v2/merchants/payins/';

// Secret parameters of a query, by names of the key list and spellings of them: [key, value sent, planted].
const SECRET_PARAMS: [string, string, string][] = [
  ['api_key', 'k_live_planted_a1', 'k_live_planted_a1'],
  ['apikey', 'k_live_planted_a2', 'k_live_planted_a2'],
  ['API-KEY', 'k_live_planted_a3', 'k_live_planted_a3'],
  ['api%5Fkey', 'k_live_planted_a4', 'k_live_planted_a4'],
  ['%61pi_key', 'k_live_planted_a5', 'k_live_planted_a5'],
  ['api+key', 'k_live_planted_a6', 'k_live_planted_a6'],
  ['token', 'tok_planted_t1', 'tok_planted_t1'],
  ['%74oken', 'tok%5Fplanted%5Ft2', 'tok_planted_t2'],
  ['access_token', 'tok_planted_t3', 'tok_planted_t3'],
  ['refresh_token', 'tok_planted_t4', 'tok_planted_t4'],
  ['password', 'pw_planted_p1', 'pw_planted_p1'],
  ['pass%77ord', 'pw_planted_p2', 'pw_planted_p2'],
  ['passwd', 'pw_planted_p3', 'pw_planted_p3'],
  ['pwd', 'pw_planted_p4', 'pw_planted_p4'],
  ['secret', 'sec_planted_s1', 'sec_planted_s1'],
  ['client_secret', 'sec_planted_s2', 'sec_planted_s2'],
  ['signature', 'sig_planted_s3', 'sig_planted_s3'],
  ['sig', 'sig_planted_s4', 'sig_planted_s4'],
  ['key', 'key_planted_k1', 'key_planted_k1'],
  ['x-api-key', 'key_planted_k2', 'key_planted_k2'],
  ['private_key', 'key_planted_k3', 'key_planted_k3'],
  ['authorization', 'Bearer%20auth_planted_z1', 'auth_planted_z1'],
  ['session_id', 'sess_planted_z2', 'sess_planted_z2'],
  ['jwt', 'jwt_planted_z3', 'jwt_planted_z3'],
  ['credentials', 'cred_planted_z4', 'cred_planted_z4'],
  ['cvv', '8713', '=8713'],
  ['card%5Bcvc%5D', '8714', '=8714'],
  ['exp_year', '2031', '=2031'],
];

// Card numbers in a query value, in groupings: [how, spelled, the card number].
const GROUPED: [string, string, string][] = [
  ['+', group(PAN.visa, '+'), PAN.visa],
  ['%20', group(PAN.visa, '%20'), PAN.visa],
  ['%2B', group(PAN.visa, '%2B'), PAN.visa],
  ['-', group(PAN.visa, '-'), PAN.visa],
  ['.', group(PAN.visa, '.'), PAN.visa],
  ['%2D', group(PAN.master, '%2D'), PAN.master],
  ['every digit percent-encoded', encodeAll(PAN.master), PAN.master],
  ['Amex 4-6-5 with +', `${PAN.amex.slice(0, 4)}+${PAN.amex.slice(4, 10)}+${PAN.amex.slice(10)}`, PAN.amex],
  ['two spaces', group(PAN.discover, '%20%20'), PAN.discover],
];

const CASES: Case[] = [
  // The request target's query, by key.
  ...SECRET_PARAMS.map(
    ([key, value, secret]): Case => ({
      what: `query ?${key}= on a lookup (400 field error)`,
      send: () => signedGet(`${BY_REFERENCE}?reference_id=order-7&${key}=${value}`),
      planted: [secret],
      kept: ['reference_id=order-7', '/v2/merchants/payins/'],
    }),
  ),
  // The request target's query: card numbers in any grouping.
  ...GROUPED.map(
    ([how, spelled, pan]): Case => ({
      what: `a card number as reference_id, grouped ${how} (404)`,
      send: () => signedGet(`${BY_REFERENCE}?reference_id=${spelled}`),
      planted: card(pan),
      kept: ['reference_id=', '/v2/merchants/payins/'],
    }),
  ),
  // The sandbox's own sentences quoting the target.
  {
    what: 'a query on a create: the 400 field error quotes it',
    send: async () => {
      const url = `${sb.url}/v2/merchants/payins/?shop=7&token=tok_planted_m1&pan=${group(PAN.visa2, '+')}`;
      return [(await post(url, payinBody())).text];
    },
    planted: ['tok_planted_m1', ...card(PAN.visa2)],
    kept: ['shop=7', 'unexpected query string'],
  },
  {
    what: 'a query on a lookup by id: the 400 field error quotes it',
    send: () => signedGet('/v2/merchants/payins/pi_missing?password=pw_planted_m2&cvv=8713'),
    planted: ['pw_planted_m2', 'cvv=8713'],
    kept: ['/v2/merchants/payins/pi_missing', 'password='],
  },
  {
    what: "a 401's hint quotes the query the signature left out",
    send: () => signedGet(`${BY_REFERENCE}?reference_id=r1&token=tok_planted_m3&api%5Fkey=k_planted_m3`, BY_REFERENCE),
    planted: ['tok_planted_m3', 'k_planted_m3'],
    kept: ['bad_signature', 'reference_id=r1'],
  },
  ...[
    ['plain', `/v3/${PAN.visa}`],
    ['%20', `/v3/${group(PAN.visa, '%20')}`],
    ['+', `/v3/${group(PAN.master, '+')}`],
    ['-', `/v2/merchants/payins/x/${group(PAN.master, '-')}`],
    ['every digit percent-encoded', `/v3/${encodeAll(PAN.visa)}`],
  ].map(
    ([how, target]): Case => ({
      what: `a 404 for a path with a card number (${how}) repeats it in its message`,
      send: () => plain('GET', target!),
      planted: card(target!.includes('5555') ? PAN.master : PAN.visa),
      kept: ['not_found'],
    }),
  ),
  {
    what: "a 404's trailing-slash hint repeats a card number in the path",
    send: () => signedGet(`/v2/merchants/payins/${PAN.visa}/`),
    planted: card(PAN.visa),
    kept: ['no trailing slash'],
  },
  {
    what: "a 404's hint repeats the card push address's token",
    send: async () => {
      const { path, token } = await pushAddress();
      planted.push(token);
      return plain('POST', path.slice(0, -1), [['content-type', 'application/json']], '{}');
    },
    planted: [],
    kept: ['/card-proxy/v1/push/', 'ends with a slash'],
  },
  {
    what: 'a field error path that is a card number, in the body and the query',
    send: async () => {
      const body = JSON.stringify({ ...payinBody(), [group(PAN.visa2, ' ')]: 1 });
      const first = await post(`${sb.url}/v2/merchants/payins/`, body);
      return [first.text, ...(await signedGet(`${BY_REFERENCE}?reference_id=r2&${group(PAN.master, '+')}=1`))];
    },
    planted: [...card(PAN.visa2), ...card(PAN.master)],
    kept: ['is not an allowed'],
  },
  // GET forms to the card proxy.
  {
    what: 'a GET form to the card proxy (card number with +, cvv, expiry)',
    send: async () => {
      const { path } = await pushAddress();
      return plain('GET', `${path}?pan=${group(PAN.master, '+')}&cvv=8713&exp_month=11&exp_year=2031&holder=Jane`);
    },
    planted: [...card(PAN.master), 'cvv=8713', 'exp_year=2031', 'exp_month=11'],
    kept: ['/card-proxy/v1/push/', 'holder=Jane', 'method_not_allowed'],
  },
  {
    what: 'a GET form to the card proxy in bracket spelling',
    send: async () => {
      const { path } = await pushAddress();
      return plain('GET', `${path}?card%5Bnumber%5D=${group(PAN.discover, '%20')}&card[cvc]=8713&card[security_code]=8714`);
    },
    planted: [...card(PAN.discover), '=8713', '=8714'],
    kept: ['/card-proxy/v1/push/'],
  },
  // Headers.
  {
    what: 'a card number as x-merchant-id',
    send: () => plain('GET', '/v2/merchants/payins/pi_1', [['x-merchant-id', group(PAN.visa, ' ')]]),
    planted: card(PAN.visa),
    kept: ['missing_header'],
  },
  {
    what: 'Authorization and Cookie on a service call',
    send: () =>
      signedGet('/v2/merchants/payins/pi_missing', '/v2/merchants/payins/pi_missing', [
        ['authorization', 'Bearer auth_planted_h1'],
        ['cookie', 'pay_sandbox_admin=ck_planted_h2; session=ck_planted_h3'],
      ]),
    planted: ['auth_planted_h1', 'ck_planted_h2', 'ck_planted_h3'],
    kept: ['/v2/merchants/payins/pi_missing'],
  },
  // Admin calls: log lines.
  {
    what: 'the admin token in the query of an admin call',
    send: async () => {
      planted.push(sb.adminToken);
      return [
        ...(await plain('GET', `/_sandbox/health?token=${sb.adminToken}`)),
        ...(await plain('GET', `/_sandbox/nowhere?key=${sb.adminToken}`)),
      ];
    },
    planted: [],
    kept: ['/_sandbox/health?token='],
    admin: true,
  },
  {
    what: 'an admin 404 (JSON and page) repeats a card number and a token in the path',
    send: async () => [
      ...(await plain('GET', `/_sandbox/${group(PAN.visa, '%20')}?secret=sec_planted_a1`)),
      ...(await plain('GET', `/_sandbox/${PAN.visa}?secret=sec_planted_a1`, [['accept', 'text/html']])),
      ...(await plain('GET', `/_sandbox/timeline/${group(PAN.master, '+')}`, [['accept', 'text/html']])),
    ],
    planted: [...card(PAN.visa), ...card(PAN.master), 'sec_planted_a1'],
    kept: ['/_sandbox/'],
    admin: true,
  },
  // Bodies: keys of the extended list.
  {
    what: 'credentials in a JSON body by keys of the extended list',
    send: async () => {
      const body = JSON.stringify({
        refresh_token: 'tok_planted_b1',
        'x-api-key': 'key_planted_b2',
        session_id: 'sess_planted_b3',
        client_secret: 'sec_planted_b4',
        'api%5Fkey': 'key_planted_b5',
        'card[cvv]': '8713',
        card: { number: group(PAN.amex, ' '), cvc: '8714' },
        reference_id: 'order-b',
      });
      return [(await post(`${sb.url}/v2/merchants/payins/`, body)).text];
    },
    planted: [
      'tok_planted_b1',
      'key_planted_b2',
      'sess_planted_b3',
      'sec_planted_b4',
      'key_planted_b5',
      '"8713"',
      '"8714"',
      ...card(PAN.amex),
    ],
    kept: ['order-b', 'refresh_token'],
  },
];

// Strings planted by a case while it runs (a push token, the admin token).
let planted: string[] = [];

/** Everything the sandbox shows of what it was sent, read as a developer reads it. */
async function shown(): Promise<{ where: string; text: string }[]> {
  return [
    { where: 'GET /_sandbox/requests', text: (await call('GET', `${sb.url}/_sandbox/requests`)).text },
    { where: 'the requests page', text: (await call('GET', `${sb.url}/_sandbox/log`)).text },
  ];
}

describe.each(CASES.map((c) => [c.what, c] as const))('%s', (_what, c) => {
  it('is shown nowhere: answer, request log, requests page, log lines', async () => {
    planted = [...c.planted];
    const from = sb.lines.length;
    const answers = await c.send();
    const places = [
      ...answers.map((text) => ({ where: 'the answer', text })),
      ...(await shown()),
      { where: 'the log lines', text: sb.lines.slice(from).join('\n') },
    ];
    for (const { where, text } of places) expect(leaked(text, planted), where).toEqual([]);
    const log = c.admin ? sb.lines.slice(from).join('\n') : places.find((p) => p.where === 'GET /_sandbox/requests')!.text;
    for (const k of c.kept) expect(log, 'what is not secret is still shown').toContain(k);
  });
});

describe('pay-sandbox requests', () => {
  it('shows none of the planted strings of the whole table, in its table or as JSON', async () => {
    const all: string[] = [];
    for (const c of CASES) {
      planted = [...c.planted];
      await c.send();
      all.push(...planted);
    }
    const table = await runInProcess(['requests', '--limit', '1000', '--url', sb.url]);
    const json = await runInProcess(['requests', '--json', '--limit', '1000', '--url', sb.url]);
    for (const out of [table, json]) {
      expect(out.code).toBe(0);
      expect(leaked(out.stdout + out.stderr, all)).toEqual([]);
      expect(out.stdout).toContain('reference_id=order-7');
    }
    expect(JSON.parse(json.stdout).length).toBeGreaterThan(40);
  });
});

// The rule itself, on texts as the sandbox's sentences and log lines hold them: [text, planted, kept].
const TEXTS: [string, string[], string[]][] = [
  [`GET /v3/${PAN.visa} 404 2ms not_found`, card(PAN.visa), ['GET /v3/', '404 2ms not_found']],
  [`no endpoint GET /x/${group(PAN.visa, '%20')}`, card(PAN.visa), ['no endpoint GET /x/']],
  [`/x/${group(PAN.visa, '%2520')}`, card(PAN.visa), ['/x/']],
  [`?n=${encodeAll(PAN.amex)}&shop=7`, card(PAN.amex), ['shop=7']],
  [
    `${group(PAN.master, ' - ')} and ${group(PAN.visa, '/')} and ${group(PAN.discover, '_')}`,
    [...card(PAN.master), ...card(PAN.visa), ...card(PAN.discover)],
    [' and '],
  ],
  [
    'sign the whole URL you call, ?reference_id=r1&Api-Key=k_planted_u1&TOKEN=t_planted_u2 included',
    ['k_planted_u1', 't_planted_u2'],
    ['reference_id=r1', 'included'],
  ],
  ['a=1; session=s_planted_u3; theme=dark', ['s_planted_u3'], ['a=1', 'theme=dark']],
  ['#access_token=t_planted_u4&state=ok', ['t_planted_u4'], ['state=ok']],
  ['?x=opaque_planted_value_u5&reference_id=order-long-reference-1', ['opaque_planted_value_u5'], ['reference_id=order-long-reference-1']],
  [
    'postgres://app:pw_planted_u6@db:5432/pay and https://u:pw_planted_u7@x.example/?ok=1',
    ['pw_planted_u6', 'pw_planted_u7'],
    ['@db:5432/pay', 'ok=1'],
  ],
  ['body {"client_secret": "s_planted_u8", "amount": 5, "cvc": 8713}', ['s_planted_u8', '8713'], ['"amount": 5']],
  ['/card-proxy/v1/push/ct_planted_u9/ has no trailing slash', ['ct_planted_u9'], ['/card-proxy/v1/push/', 'has no trailing slash']],
  ['?card.number=4000000000000001&card[expiry_month]=11', ['4000000000000001', '=11'], ['0001']],
  ['?%2561pi_key=k_planted_u10', ['k_planted_u10'], []],
];

describe('the masking rule', () => {
  it.each(TEXTS)('%s', (text, planted, kept) => {
    const shown = maskText(text);
    expect(leaked(shown, planted)).toEqual([]);
    for (const k of kept) expect(shown).toContain(k);
    expect(maskText(shown), 'masking twice is masking once').toBe(shown);
  });

  it('hides headers by their name, signatures included, and masks the rest as text', () => {
    expect(maskHeader('Authorization', 'Bearer t_planted')).toBe('***');
    expect(maskHeader('cookie', 'pay_sandbox_admin=t_planted')).toBe('***');
    expect(maskHeader('X-Api-Key', 't_planted')).toBe('***');
    expect(maskHeader('x-signature', 'ab'.repeat(32))).toBe('***');
    expect(maskHeader('x-merchant-id', group(PAN.visa, ' '))).toBe('••••4242');
    expect(maskHeader('x-merchant-id', 'm_1')).toBe('m_1');
  });

  it("leaves the interface's own keys and values alone", () => {
    const body = {
      ...payinBody(),
      reference_id: 'order-2024-0042',
      customer: { ...payinBody().customer, phone: { country_code: '1', number: '4165550123' } },
    };
    expect(maskJson(JSON.parse(JSON.stringify(body)))).toEqual(JSON.parse(JSON.stringify(body)));
  });

  it('never throws on broken percent-encoding or lone surrogates', () => {
    for (const text of ['%E0%A4%A', '%', '%%%zz', 'token=%FF%FE', '\uD800=%D8%00', `?a=${'%'.repeat(5000)}`]) {
      expect(() => maskText(text)).not.toThrow();
    }
  });
});
