// The bundled reference implementation as a harness-protocol child: @pay/sign (and, for the client
// commands, @pay/client: adapter-client.ts) behind JSON lines on stdio. Nothing but protocol
// answers ever goes to stdout; logs go to stderr. Answers go out in the order of the requests.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { signRequest, signSimplified, simplifiedStringToSign, stringToSign, verifyRequest } from '@pay/sign';
import { answerClient, isClientCommand } from './adapter-client.js';
import { getBuiltIn } from '../built-in.js';
import { CLIENT_COMMANDS, COMMANDS } from '../types.js';
import { shownVersions } from '../version.js';

type Obj = Record<string, unknown>;

const require = createRequire(import.meta.url);
// The versions really installed beside this adapter, as the report shows them (in the single
// executable, those it was built from: no package.json is beside it).
const builtIn = getBuiltIn();
const installed = ['@pay/sign', '@pay/client'].map((name) => ({
  name,
  version: builtIn?.versions[name] ?? (require(`${name}/package.json`) as { version: string }).version,
}));

/** The commands this adapter implements: every command of the protocol, the client commands included. */
const CAPABILITIES = [...COMMANDS, ...CLIENT_COMMANDS];

function text(req: Obj, key: string): string {
  const v = req[key];
  if (typeof v !== 'string') throw new Error(`"${key}" must be a string`);
  return v;
}

function bytes(req: Obj, key: string): Uint8Array {
  const v = req[key];
  if (v === undefined) return new Uint8Array(0);
  if (typeof v !== 'string') throw new Error(`"${key}" must be a base64 string`);
  return Buffer.from(v, 'base64');
}

const b64 = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64');

function headersOf(req: Obj): Record<string, string> {
  const h = req['headers'];
  if (typeof h !== 'object' || h === null || Array.isArray(h)) throw new Error('"headers" must be an object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}

/** The JavaScript runtime the adapter runs on, for the report: Node, Deno or Bun. */
function runtime(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions['deno']) return `Deno ${versions['deno']}`;
  if (versions['bun']) return `Bun ${versions['bun']}`;
  return `Node.js ${process.version}`;
}

/** Answers one request (bye with `{}`); throws on a request it cannot read, which serve() answers as an error. */
function answer(req: Obj): Obj {
  const cmd = req['cmd'];
  switch (cmd) {
    case 'hello':
      return {
        protocol: 1,
        name: '@pay/sign + @pay/client',
        version: shownVersions(installed),
        language: `TypeScript (${runtime()})`,
        capabilities: [...CAPABILITIES],
      };
    case 'bye':
      return {};
    case 'sign_request': {
      const args = {
        merchantId: text(req, 'merchant_id'),
        timestamp: text(req, 'timestamp'),
        method: text(req, 'method'),
        url: text(req, 'url'),
        body: bytes(req, 'body_b64'),
      };
      const headers = signRequest({ ...args, secret: text(req, 'secret') });
      return { case: req['case'], headers, string_to_sign_b64: b64(stringToSign(args)) };
    }
    case 'sign_simplified': {
      const args = { merchantId: text(req, 'merchant_id'), timestamp: text(req, 'timestamp'), payinId: text(req, 'payin_id') };
      const headers = signSimplified({ ...args, secret: text(req, 'secret') });
      return { case: req['case'], headers, string_to_sign_b64: b64(simplifiedStringToSign(args)) };
    }
    case 'verify_webhook':
    case 'verify_request': {
      const now = text(req, 'now');
      if (!/^[0-9]+$/.test(now)) throw new Error('"now" must be unix seconds in decimal digits');
      const result = verifyRequest({
        merchantId: text(req, 'merchant_id'),
        secret: text(req, 'secret'),
        method: text(req, 'method'),
        url: text(req, 'url'),
        headers: headersOf(req),
        body: bytes(req, 'body_b64'),
        now: Number(now),
      });
      return result.ok ? { case: req['case'], valid: true, reason: null } : { case: req['case'], valid: false, reason: result.reason };
    }
    default:
      return { case: req['case'], error: 'unsupported' };
  }
}

/** Serves the protocol on the given streams until bye or end of input. */
export function serve(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, crlfDelay: Infinity });
    let done = false;
    let queue: Promise<void> = Promise.resolve();
    const finish = () => {
      if (done) return;
      done = true;
      rl.close();
      resolve();
    };
    rl.on('line', (line) => {
      if (done) return;
      let req: unknown;
      try {
        req = JSON.parse(line);
      } catch {
        output.write(`${JSON.stringify({ error: 'request is not JSON' })}\n`);
        return;
      }
      if (typeof req !== 'object' || req === null || Array.isArray(req)) {
        output.write(`${JSON.stringify({ error: 'request is not a JSON object' })}\n`);
        return;
      }
      const r = req as Obj;
      // A client command takes time (HTTP calls): the answers after it wait their turn.
      queue = queue.then(async () => {
        let reply: Obj;
        try {
          reply = isClientCommand(r['cmd']) ? await answerClient(r['cmd'], r) : answer(r);
        } catch (e) {
          reply = { case: r['case'], error: (e as Error).message || String(e) };
        }
        output.write(`${JSON.stringify(reply)}\n`);
        if (r['cmd'] === 'bye') finish();
      });
    });
    rl.on('close', () => void queue.then(finish));
  });
}
