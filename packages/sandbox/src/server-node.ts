/// <reference types="node" />
// The Node adapter: one node:http server around the Fetch core. It gives the core what a Fetch
// `Request` cannot carry: the exact URL called (the `Host` header and the raw request target),
// the peer address, headers received twice, and a socket it can destroy for the drop faults.
import { constants, existsSync } from 'node:fs';
import { type FileHandle, open, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sandboxAdmin, type SandboxAdmin } from './admin-client/client.js';
import { MAX_BODY_BYTES, type Reply } from './http.js';
import type { Merchant } from './merchants.js';
import { nodeSender } from './sender-node.js';
import { type PeerAccount, peerAccount } from './peer-account.js';
import { isLoopbackName } from './names.js';
import { coreHandler, coreState, coreTracker, createCore } from './core.js';
import type { HostRequest } from './host-request.js';
import { checkListenAddress, checkStateFile, type StartSandboxOptions } from './options.js';
import { applySeed } from './seed.js';
import { CARD_PROXY_PREFIX } from './endpoints.js';
import { parseSnapshot, restoreSnapshot, takeSnapshot } from './snapshot.js';
import { portInUse } from './port-in-use.js';
import type { State } from './state.js';

/**
 * How long an idle kept-alive connection stays open, in seconds, as the sandbox tells clients
 * (`Keep-Alive: timeout=5`, Node's own default). The server really keeps it open twice as long:
 * a client closes its idle connections a little before the time it was told (Node's fetch 2 s
 * before), and on a busy machine its timer can fire later than that, so a server that closed at
 * the very time it announced would now and then close a connection just as the client's next
 * request left on it, and that request would fail (a journal test's admin POST did, in CI).
 */
const KEEP_ALIVE_SECONDS = 5;
const KEEP_ALIVE_HEADER = `timeout=${KEEP_ALIVE_SECONDS}`;

/** How often a changed state is written to the state file, in ms. */
export const STATE_SAVE_INTERVAL_MS = 2_000;

/** A running sandbox. */
export interface RunningSandbox {
  /** The service base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The card proxy URL: `<url>/card-proxy`. */
  cardProxyUrl: string;
  /** The dashboard: `<url>/_sandbox/`. */
  dashboardUrl: string;
  /** The merchants it accepts (the demo merchant when none were given). */
  merchants: readonly Merchant[];
  /** The admin token: what a caller other than this machine's developer needs for the admin API and dashboard. */
  adminToken: string;
  /**
   * While the sandbox is reachable from elsewhere (a `publicUrl` that is not a loopback name,
   * `host` beyond loopback, `allowHttpHosts`, `localReceivers`), its admin area asks every caller
   * for the token, this machine's too: this link (`<url>/_sandbox/sign-in#code=...`) opens the
   * dashboard in the developer's browser, once (its code is used up; `pay-sandbox` prints it).
   * Undefined otherwise: the dashboard then opens on this machine without a token.
   */
  signInUrl: string | undefined;
  /** Its admin API, typed: `await sandbox.admin.advance(3600)`. */
  admin: SandboxAdmin;
  /** Stops listening, drops open connections, stops the clock and deliveries; writes the state file. */
  close(): Promise<void>;
}

// Headers that must come once: Node keeps the first copy of some and joins others, so a second
// copy is found in the raw headers and refused.
const SINGLE = new Set(['host', 'content-type', 'content-length', 'x-merchant-id', 'x-timestamp', 'x-signature', 'x-simplified-signature']);

/**
 * Starts the sandbox on Node: one HTTP server serving the service, the card proxy, the admin API
 * and the dashboard.
 *
 * @throws TypeError for unusable options; rejects when the port cannot be listened on: with a
 * `SandboxPortInUseError` (code `EADDRINUSE`) when it is taken, which says whether a
 * sandbox answers there.
 * @example
 * ```ts
 * const sandbox = await startSandbox({ merchants: [{ id: 'm_1', secret: 'sk_1' }], port: 0 });
 * console.log(sandbox.url, sandbox.cardProxyUrl);
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host = '127.0.0.1', stateFile, seed, ...rest } = options;
  checkStateFile(stateFile);
  const saved = stateFile !== undefined && existsSync(stateFile) ? await loadState(stateFile).catch(fileRefused) : undefined;
  checkListenAddress(port, host);
  const sender = nodeSender();
  let sandbox: ReturnType<typeof createCore>;
  try {
    sandbox = createCore(rest, sender.send, !isLoopbackName(host === '::1' ? '[::1]' : host));
  } catch (error) {
    sender.close();
    throw error;
  }
  const handle = coreHandler(sandbox);
  const track = coreTracker(sandbox);
  const server = createServer({ keepAliveTimeout: 2 * KEEP_ALIVE_SECONDS * 1000 });
  // Whose process each connection's peer is, asked once per connection and only when needed.
  const accounts = new WeakMap<Socket, PeerAccount>();
  function accountOf(socket: Socket): PeerAccount {
    let account = accounts.get(socket);
    if (account === undefined) {
      const { remoteAddress, remotePort, localAddress, localPort } = socket;
      account =
        remoteAddress === undefined || remotePort === undefined || localAddress === undefined || localPort === undefined
          ? 'other'
          : peerAccount({ address: remoteAddress, port: remotePort }, { address: localAddress, port: localPort });
      accounts.set(socket, account);
    }
    return account;
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch(() => req.socket.destroy());
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    // No Host header (HTTP/1.0) leaves the authority empty: the core refuses a request that does
    // not name the sandbox.
    const url = target.startsWith('/') ? `http://${req.headers.host ?? ''}${target}` : target;
    // Tracked on the sandbox's clock from arrival to the answer; a stream's body (the dashboard's
    // change feed, open for as long as the page is) is written after, untracked.
    const { answer, truncated } = await track(url, () => answerOf(req, url));
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    // Headers as a flat list, the cheapest form for Node to write.
    const headers: string[] = [];
    for (const name in answer.headers) headers.push(name, answer.headers[name]!);
    // A body left unread (too large) must not be parsed as the next request.
    if (truncated) headers.push('connection', 'close');
    else headers.push('keep-alive', KEEP_ALIVE_HEADER); // Node then sends no Keep-Alive of its own
    if (answer.body === null || typeof answer.body === 'string') {
      if (answer.body !== null) headers.push('content-length', String(Buffer.byteLength(answer.body)));
      res.writeHead(answer.status, headers);
      res.end(answer.body ?? undefined);
      return;
    }
    // A stream (the dashboard's change feed): written as it comes, cancelled when the client goes.
    res.writeHead(answer.status, headers);
    res.flushHeaders();
    const reader = answer.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  }

  /** Reads a request and has the core answer it. */
  async function answerOf(req: IncomingMessage, url: string): Promise<{ answer: Reply; truncated: boolean }> {
    let duplicateHeaders: string[] | undefined;
    for (let i = 0, seen = ''; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!.toLowerCase();
      if (!SINGLE.has(name)) continue;
      if (seen.includes(`|${name}|`)) (duplicateHeaders ??= []).push(name);
      seen += `|${name}|`;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    // Read (up to the limit) whatever the method: a body left unread would be read and discarded
    // by Node whatever its size. GET bodies are then ignored: they are not signed.
    const body = await readLimited(req);
    const read = Promise.resolve(body.truncated ? undefined : body.bytes);
    // Optional fields set one by one: a spread of each would cost V8 more than the rest of this.
    const incoming: HostRequest = { method, url, headers: req.headers, read: () => read };
    const { remoteAddress, localPort } = req.socket;
    if (remoteAddress !== undefined) incoming.remoteAddress = remoteAddress;
    if (localPort !== undefined) incoming.localPort = localPort;
    incoming.account = () => accountOf(req.socket);
    if (duplicateHeaders !== undefined) incoming.duplicateHeaders = duplicateHeaders;
    return { answer: await handle(incoming), truncated: body.truncated };
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    sandbox.close();
    sender.close();
    // Taken, most often by a sandbox started earlier: the error says whether one answers there.
    throw (error as { code?: unknown }).code === 'EADDRINUSE' ? await portInUse(port, host, error) : error;
  }
  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  const state = coreState(sandbox);
  state.ports.add(address.port);
  let saver: Saver | undefined;
  try {
    try {
      if (saved !== undefined) restoreSnapshot(state, saved);
      if (seed !== undefined) applySeed(state, seed, rest.publicUrl?.replace(/\/$/, '') ?? url);
    } catch (error) {
      fileRefused(error);
    }
    if (stateFile !== undefined) saver = new Saver(state, stateFile, rest.log);
  } catch (error) {
    sandbox.close();
    sender.close();
    server.close();
    throw error;
  }
  return {
    url,
    cardProxyUrl: `${url}${CARD_PROXY_PREFIX}`,
    dashboardUrl: `${url}/_sandbox/`,
    merchants: sandbox.merchants,
    adminToken: sandbox.adminToken,
    signInUrl: state.names.adminTokenFromEveryone ? sandbox.signInLink(url) : undefined,
    admin: sandboxAdmin(url, { adminToken: sandbox.adminToken }),
    close: async () => {
      await saver?.stop();
      await new Promise<void>((resolve) => {
        sandbox.close();
        sender.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The code of the TypeError for a state file or seed that is refused (the command line exits 1 on it). */
export const FILE_REFUSED = 'ERR_PAY_SANDBOX_FILE';

function fileRefused(error: unknown): never {
  throw Object.assign(new TypeError(error instanceof Error ? error.message : 'the file cannot be used'), { code: FILE_REFUSED });
}

/** The largest state file read: far above a full sandbox's (about 105 MiB at worst, see the README). */
const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Reads and checks a state file. It is opened once, without following a link, checked on that
 * handle and read from it: a state file decides where webhooks go, so one that another account
 * could have written or swapped in (a shared directory such as /tmp) is refused, never loaded.
 * @throws TypeError saying what is wrong with it.
 */
async function loadState(file: string) {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hang the start.
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ELOOP') throw new TypeError(`state file ${file} is a symbolic link: give the path of the file itself`);
    throw new TypeError(`state file ${file} cannot be read (${code ?? 'error'})`);
  }
  let text: string;
  try {
    const wrong = notTheDevelopers(await handle.stat());
    if (wrong !== undefined) throw new TypeError(`state file ${file} ${wrong}`);
    text = await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError(`state file ${file} cannot be read (${(error as { code?: string }).code ?? 'error'})`);
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where the JSON breaks, never V8's own message: it quotes the text, which holds customers'
    // names, e-mails and webhook URLs.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new TypeError(`state file ${file} cannot be read as JSON${position === undefined ? '' : ` (error at character ${position})`}`);
  }
  return parseSnapshot(value);
}

/**
 * Why a state file's handle is not the developer's alone, if it is not: not a regular file, owned
 * by another account (root's is fine: no other account could have written it), writable by its
 * group or others, or larger than any state. The sandbox writes its state files 0600, so a file
 * that fails here was written or changed by someone else. Where no account can be compared
 * (Windows: no process.getuid), only the kind and size are checked.
 */
function notTheDevelopers(info: { isFile(): boolean; uid: number; mode: number; size: number }): string | undefined {
  if (!info.isFile()) return 'is not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid && info.uid !== 0) {
    return `belongs to another account (uid ${info.uid}, not ${uid}): another account may have written it; give a state file of your own`;
  }
  if (uid !== undefined && (info.mode & 0o022) !== 0) {
    return `is writable by its group or by others (mode ${(info.mode & 0o777).toString(8)}): anyone who could write it decides where webhooks go; chmod 600 it`;
  }
  if (info.size > MAX_STATE_FILE_BYTES) return `is larger than ${MAX_STATE_FILE_BYTES} bytes: not a sandbox state`;
  return undefined;
}

/**
 * Writes the state to its file whenever it changed, at most every STATE_SAVE_INTERVAL_MS, through
 * a temporary file renamed over the old one: a crash mid-write leaves the previous state whole.
 * The interval is real time whatever the sandbox's clock: housekeeping of a file, not business time.
 */
class Saver {
  #savedVersion = -1;
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    readonly state: State,
    readonly file: string,
    readonly log: ((line: string) => void) | undefined,
  ) {
    this.#timer = setInterval(() => void this.save(), STATE_SAVE_INTERVAL_MS);
    this.#timer.unref();
    void this.save();
  }

  /** Writes the state if it changed since the last write (writes never overlap). */
  save(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      const version = this.state.version;
      if (version === this.#savedVersion) return;
      const temporary = `${this.file}.${process.pid}.tmp`;
      try {
        // Readable by the developer alone (it holds customers' names and e-mails and webhook
        // URLs): a new file made 0600, which the rename keeps; one left by a crash is replaced.
        await rm(temporary, { force: true });
        await writeFile(temporary, JSON.stringify(takeSnapshot(this.state)), { mode: 0o600, flag: 'wx' });
        await rename(temporary, this.file);
        this.#savedVersion = version;
      } catch (error) {
        // The next tick tries again; a state file is a convenience, never a reason to stop serving.
        this.log?.(`state file ${this.file} not written: ${(error as { code?: string }).code ?? 'error'}`);
      }
    });
    return this.#writing;
  }

  /** Stops the timer and writes the state one last time. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.save();
  }
}

/**
 * Reads a body, at most one byte past the limit: enough to know it is too large (413) without
 * ever holding a huge body. The rest is left unread.
 */
function readLimited(req: IncomingMessage): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const limit = MAX_BODY_BYTES + 1;
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve({ bytes: new Uint8Array(0), truncated: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        // Stop reading without destroying the socket: the 413 still has to be sent on it.
        req.off('data', onData).off('end', onEnd).off('error', reject);
        req.pause();
        resolve({ bytes: Buffer.concat(chunks, size).subarray(0, limit), truncated: true });
      }
    };
    // One chunk (a usual request body) is used as it is, not copied.
    const onEnd = () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated: false });
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}
