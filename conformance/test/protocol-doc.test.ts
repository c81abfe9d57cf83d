// PROTOCOL.md is the contract third parties write adapters against: what it says must be what the
// runner does (its commands, the reason codes in their order, the version, the default time limit).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_COMMANDS,
  CLIENT_ERROR_KINDS,
  COMMANDS,
  DEFAULT_START_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  PROTOCOL_VERSION,
  REASON_CODES,
} from '../src/types.js';
import { pkgDir } from './helpers.js';
import {
  CLIENT_CASES,
  SDK_TIMEOUT_MS,
  SDK_TOTAL_TIMEOUT_MS,
  SETTLE_SECONDS,
  TOLERANCE_SECONDS,
  timeoutOf,
  totalTimeoutOf,
} from '../src/http/client/cases.js';
import { BASE_PATH } from '../src/http/client/proxy.js';
import { SINGLETON_HEADERS } from '../src/http/client/raw.js';

const doc = readFileSync(join(pkgDir, 'PROTOCOL.md'), 'utf8');

describe('PROTOCOL.md', () => {
  it('names the version the runner speaks', () => {
    expect(doc).toMatch(new RegExp(`^# The harness protocol, version ${PROTOCOL_VERSION}$`, 'm'));
    expect(doc).toContain(`{"cmd":"hello","protocol":${PROTOCOL_VERSION}}`);
  });

  it('has a section for each command, hello and bye, with a request line for each', () => {
    const sections = [...doc.matchAll(/^### `([a-z_]+)`/gm)].map((m) => m[1]);
    expect(sections).toEqual(['hello', ...COMMANDS, 'bye']);
    for (const cmd of ['sign_request', 'sign_simplified', 'verify_webhook']) expect(doc).toContain(`{"cmd":"${cmd}","case":"…"`);
    expect(doc).toContain(`"capabilities":[${COMMANDS.map((c) => `"${c}"`).join(',')}]`);
  });

  it('lists every client command, its request, and the error kinds the runner reads', () => {
    const part = doc.slice(doc.indexOf('## Client commands'));
    expect([...part.matchAll(/^\| `(client_[a-z_]+)` \|/gm)].map((m) => m[1])).toEqual([...CLIENT_COMMANDS]);
    expect(part).toContain('{"cmd":"client_create_payin","case":"…"');
    expect(part).toContain(
      `"timeout_ms":${SDK_TIMEOUT_MS},"total_timeout_ms":${SDK_TOTAL_TIMEOUT_MS},"tolerance_seconds":${TOLERANCE_SECONDS},"settle_seconds":${SETTLE_SECONDS}`,
    );
    const kinds = part.slice(part.indexOf('| kind |'));
    expect([...kinds.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1])).toEqual([...CLIENT_ERROR_KINDS]);
  });

  it('lists the reason codes in the order the checks run', () => {
    const table = doc.slice(doc.indexOf('### Reason codes'), doc.indexOf('### `bye`'));
    expect([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1])).toEqual([...REASON_CODES]);
    expect(table).toMatch(/checks run in the order of this table/);
  });

  it('states the default time limits the runner uses', () => {
    expect(doc).toContain(`${DEFAULT_TIMEOUT_MS / 1000} seconds by default`);
    expect(doc).toContain(`start-up, has ${DEFAULT_START_TIMEOUT_MS / 1000} seconds by default`);
  });

  it('ships in the package', () => {
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain('PROTOCOL.md');
  });
});

describe("README's client mode, in step with the cases and PROTOCOL.md", () => {
  const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Client mode'), readme.indexOf('## Writing an adapter'));

  it('has a row for every category of client cases, in their order, and names every mistake a case names by its cause', () => {
    const categories = [...new Set(CLIENT_CASES.map((c) => c.category))];
    expect([...section.matchAll(/^\| `(client_[a-z_]+)` \|/gm)].map((m) => m[1])).toEqual(categories);
    for (const c of CLIENT_CASES) if (c.misread) expect(section, c.name).toContain(`(\`${c.misread.mistake}\``);
  });

  it('PROTOCOL.md tells adapters the freedoms the cases vary, and that each command is performed anew', () => {
    const part = doc.slice(doc.indexOf('## Client commands'));
    for (const phrase of [
      'any 2xx status',
      'chunked',
      'any number of fractional digits',
      'never answered from a cache',
      'no time zone',
      "ended by the connection's close",
      'header lines in any case and order',
      'any spelling of a JSON content type',
      'refusals with any 4xx status and a body of any shape',
      "a gateway's 5xx HTML page",
      'kept alive and then closed',
    ])
      expect(part).toContain(phrase);
  });

  it('PROTOCOL.md tells adapters what base_url may be (a path, https with a certificate to refuse) and which headers are sent once', () => {
    const part = doc.slice(doc.indexOf('## Client commands'));
    expect(part).toContain(`"base_url":"http://127.0.0.1:…${BASE_PATH}"`);
    for (const phrase of ['`base_url` may have a path', 'a certificate the SDK must refuse', 'a lookup (`GET`) has no body'])
      expect(part).toContain(phrase);
    const once = part.slice(part.indexOf('a header that takes'), part.indexOf('is sent once'));
    const named = [...once.matchAll(/`([A-Za-z-]+)`/g)].map((m) => m[1]!.toLowerCase());
    expect(named).toEqual([...SINGLETON_HEADERS]);
  });

  it('PROTOCOL.md gives every time limit a case tells the SDK, what each bounds, and the create given no reference_id', () => {
    const part = doc.slice(doc.indexOf('## Client commands'));
    // Each value alone, as a number: "800", "2000", "1500", "10000", "15000".
    for (const ms of new Set(CLIENT_CASES.flatMap((c) => [timeoutOf(c), totalTimeoutOf(c)])))
      expect(part, `${ms} ms`).toMatch(new RegExp(`(?<![0-9])${ms}(?![0-9])`));
    for (const phrase of [
      'bounds the whole attempt',
      'not each read',
      'the call ends by it',
      'one case gives none',
      '`null` when the create carried none',
    ])
      expect(part).toContain(phrase);
  });
});
