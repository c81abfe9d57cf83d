/// <reference types="node" />
// The port a sandbox was to listen on is taken. Most often by a sandbox started earlier (in another
// terminal, or a test that did not close it), so before saying so the sandbox asks what answers
// there: one GET / on this machine, which a sandbox answers with its JSON index, bounded by a short
// timeout and a small body. Nothing leaves the machine: the address asked is the one listen found
// taken (loopback for a wildcard), never a name to resolve.
import { request } from 'node:http';
import { isIP } from 'node:net';
import { SANDBOX_SERVICE } from './index-answer.js';

/** How long the sandbox waits for an answer on a taken port, in ms. */
const PROBE_TIMEOUT_MS = 1_000;
/** The most of an answer read: a sandbox's index is about 2 KiB. */
const PROBE_BODY_BYTES = 16 * 1024;

// Another copy of this package has its own class: a brand, not `instanceof`, recognises its errors.
const BRAND = Symbol.for('@pay/sandbox/SandboxPortInUseError');

/**
 * What `startSandbox` rejects with when its port is taken. Its `code` is Node's, `EADDRINUSE`, so
 * code that checked a listen error's code still works; `sandboxAnswers` says whether a payments
 * sandbox answers on that port (then `url` is where).
 */
export class SandboxPortInUseError extends Error {
  readonly code = 'EADDRINUSE';
  /** The port asked for. */
  readonly port: number;
  /** The interface asked for (`127.0.0.1` by default). */
  readonly host: string;
  /** True when a payments sandbox answered on the port: most likely one started earlier. */
  readonly sandboxAnswers: boolean;
  /** Where the port was asked, such as `http://127.0.0.1:4010`: the running sandbox's base URL when one answers. */
  readonly url: string;

  constructor(init: { port: number; host: string; sandboxAnswers: boolean; url: string; cause?: unknown }) {
    super(
      `port ${init.port} on ${init.host} is in use: ${
        init.sandboxAnswers
          ? `a payments sandbox already answers there (${init.url}/_sandbox/); use it, stop it, or start this one on another port (0 picks a free one)`
          : 'another program listens there (no payments sandbox answers); stop it, or start on another port (0 picks a free one)'
      }`,
      { cause: init.cause },
    );
    this.name = 'SandboxPortInUseError';
    this.port = init.port;
    this.host = init.host;
    this.sandboxAnswers = init.sandboxAnswers;
    this.url = init.url;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for a {@link SandboxPortInUseError} of this copy of `@pay/sandbox` or any other. */
export function isSandboxPortInUseError(value: unknown): value is SandboxPortInUseError {
  return value instanceof Error && (value as unknown as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * The error for a listen that failed with EADDRINUSE (`cause`, Node's error, which names the
 * address it resolved): asks the port whether a sandbox answers there first.
 */
export async function portInUse(port: number, host: string, cause: unknown): Promise<SandboxPortInUseError> {
  const taken = (cause as { address?: unknown }).address;
  const address = typeof taken === 'string' && isIP(taken) !== 0 ? taken : isIP(host) !== 0 ? host : '127.0.0.1';
  // A wildcard address is reached on loopback.
  const probed = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  const url = `http://${isIP(probed) === 6 ? `[${probed}]` : probed}:${port}`;
  return new SandboxPortInUseError({ port, host, sandboxAnswers: await answersAsSandbox(probed, port), url, cause });
}

/** Whether `GET /` at the address answers as a payments sandbox does, within PROBE_TIMEOUT_MS. */
function answersAsSandbox(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const host = isIP(address) === 6 ? `[${address}]` : address;
    const req = request({
      host: address,
      port,
      path: '/',
      method: 'GET',
      headers: { host: `${host}:${port}`, accept: 'application/json' },
      agent: false,
    });
    // One deadline for the whole exchange: a program that accepts and never answers, or answers
    // a byte at a time, is not waited for.
    const timer = setTimeout(() => done(false), PROBE_TIMEOUT_MS);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      resolve(answer);
      req.destroy();
    };
    req.on('error', () => done(false));
    req.on('response', (res) => {
      if (res.statusCode !== 200) return done(false);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > PROBE_BODY_BYTES) return done(false);
        chunks.push(chunk);
      });
      res.on('error', () => done(false));
      res.on('end', () => {
        try {
          done((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { service?: unknown }).service === SANDBOX_SERVICE);
        } catch {
          done(false);
        }
      });
    });
    req.end();
  });
}
