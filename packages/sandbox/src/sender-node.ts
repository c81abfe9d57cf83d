/// <reference types="node" />
// Webhook attempts on Node: each one written as a single HTTP/1.1 request onto a kept-alive socket
// (node:net, or node:tls for https), its answer read by AnswerReader. The same contract as the
// fetch sender (no redirect followed, one deadline over the whole attempt, abortable) at about
// 0.6 of the CPU of undici's dispatch API, the cheapest of the clients Node offers: every create
// sends a webhook, so this is a large part of what a create costs (README, Benchmarks).
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { WebhookSender } from './deliveries.js';
import { AnswerReader, Progress } from './webhook-answer.js';

/** Addresses whose split form the sender keeps (the oldest is dropped past it). */
export const MAX_TARGETS = 256;
/** Connections open at once to one origin; attempts past it wait for one to be free. */
const MAX_CONNECTIONS = 64;
/** How long a connection waits, idle, for the next webhook: under Node's own 5 s server default. */
const IDLE_MS = 4_000;
// What an HTTP/1.1 request target cannot hold: white space and control characters.
const UNSENDABLE = /[\u0000-\u0020\u007f]/;
// A header value cannot hold CR, LF or NUL (they would end it, or start another).
const UNSAFE_VALUE = /[\r\n\u0000]/;

function timeoutError(): Error {
  return Object.assign(new Error('the webhook attempt ran out of time'), { name: 'TimeoutError' });
}

function resetError(): Error {
  return Object.assign(new Error('the connection closed before the answer'), { code: 'ECONNRESET' });
}

/** Where a webhook URL's requests go, worked out once per address. */
interface Target {
  origin: string;
  secure: boolean;
  /** The name or address connected to (an IPv6 address without its brackets). */
  host: string;
  port: number;
  /** The TLS server name: the host name (never an address). */
  servername: string | undefined;
  /** The request line and Host header: `POST <path and query, as written> HTTP/1.1` and the URL's host. */
  head: string;
}

function targetOf(url: string): Target {
  // The path and query exactly as written in the URL that was signed; the fragment is not sent.
  const [, origin = url, rest = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^#]*)/i.exec(url) ?? [];
  const path = rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
  const parsed = new URL(origin);
  const secure = parsed.protocol === 'https:';
  if (!secure && parsed.protocol !== 'http:') throw new TypeError('a webhook URL is http or https');
  if (UNSENDABLE.test(path)) throw new TypeError('the webhook URL has white space or control characters, which a request cannot carry');
  const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return {
    origin: parsed.origin,
    secure,
    host,
    port: parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port),
    servername: secure && isIP(host) === 0 ? host : undefined,
    head: `POST ${path} HTTP/1.1\r\nhost: ${parsed.host}\r\n`,
  };
}

/** A sender and the function that closes its connections. */
export function nodeSender(): { send: WebhookSender; readonly cached: number; close(): void } {
  // Split once per address (a merchant's webhooks all go to the same few). Bounded (MAX_TARGETS
  // addresses, each at most a kept URL's length), and emptied when the sandbox resets: it holds
  // webhook URLs, which must not outlive the transactions they came from.
  const targets = new Map<string, Target>();
  const target = (url: string) => {
    let found = targets.get(url);
    if (found === undefined) {
      found = targetOf(url);
      if (targets.size >= MAX_TARGETS) targets.delete(targets.keys().next().value!);
      targets.set(url, found);
    }
    return found;
  };
  const pools = new Pools();
  // One deadline per attempt, from connecting to the answer's last byte, so a receiver trickling a
  // byte every few seconds still times out. Attempts under way are kept in one set, and one timer
  // is armed for the earliest deadline among them (a timer per attempt cost more than the rest of
  // its bookkeeping); deadlines are on the monotonic clock, which a change of the wall clock does
  // not move. The sandbox's reset or close (`signal`, one per generation) stops every attempt of
  // that generation still under way: one listener per generation, not one per attempt.
  const inFlight = new Set<Attempt>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedFor = Infinity;
  const arm = (deadline: number) => {
    if (deadline >= armedFor) return;
    if (timer !== undefined) clearTimeout(timer);
    armedFor = deadline;
    timer = setTimeout(expire, Math.max(0, deadline - performance.now()));
    timer.unref();
  };
  const expire = () => {
    timer = undefined;
    armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const attempt of inFlight) {
      if (attempt.deadline <= now) attempt.stop(timeoutError());
      else next = Math.min(next, attempt.deadline);
    }
    if (next !== Infinity) arm(next);
  };
  const underWay = new WeakMap<AbortSignal, Set<Attempt>>();
  const send: WebhookSender = (url, { headers, body, signal, timeoutMs }) => {
    let stops = underWay.get(signal);
    if (stops === undefined) {
      // A new signal is a new generation of the sandbox (started, or reset): forget the old addresses.
      targets.clear();
      const mine = new Set<Attempt>();
      underWay.set(signal, mine);
      signal.addEventListener('abort', () => {
        for (const attempt of [...mine]) attempt.stop(signal.reason);
      });
      stops = mine;
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    let to: Target;
    let request = '';
    try {
      to = target(url);
      request = to.head;
      for (const name in headers) {
        const value = headers[name]!;
        if (UNSAFE_VALUE.test(value) || UNSAFE_VALUE.test(name)) throw new TypeError(`header ${name} cannot be sent`);
        request += `${name}: ${value}\r\n`;
      }
    } catch (error) {
      return Promise.reject(error);
    }
    request += `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const generation = stops;
    return new Promise<number>((resolve, reject) => {
      const attempt = new Attempt(resolve, reject, performance.now() + timeoutMs, generation, inFlight, request);
      generation.add(attempt);
      inFlight.add(attempt);
      arm(attempt.deadline);
      pools.dispatch(to, attempt);
    });
  };
  return {
    send,
    get cached() {
      return targets.size;
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      for (const attempt of [...inFlight]) attempt.stop(new Error('the sandbox closed'));
      pools.close();
    },
  };
}

/** One attempt: settled once, by its answer, an error, its deadline, or its generation ending. */
class Attempt {
  #settled = false;
  /** The connection carrying it, once it has one. */
  connection: Connection | undefined;
  /** The pool it waits in for a free connection, while it waits. */
  waitingIn: Pool | undefined;

  constructor(
    readonly resolve: (status: number) => void,
    readonly reject: (error: unknown) => void,
    /** When it is given up, on the clock of performance.now(). */
    readonly deadline: number,
    readonly generation: Set<Attempt>,
    readonly inFlight: Set<Attempt>,
    /** The whole request: head and body. */
    readonly request: string,
  ) {}

  /** Stops it (deadline, reset, close): its connection is dropped, as the answer is no longer awaited. */
  stop(reason: unknown): void {
    if (this.#settled) return;
    this.waitingIn?.forget(this);
    this.connection?.drop();
    this.fail(reason);
  }

  answered(status: number): void {
    if (this.#settle()) this.resolve(status);
  }

  fail(error: unknown): void {
    if (this.#settle()) this.reject(error);
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.connection = undefined;
    this.waitingIn = undefined;
    this.generation.delete(this);
    this.inFlight.delete(this);
    return true;
  }
}

/** Every origin's pool of connections, and the one timer that closes connections idle too long. */
class Pools {
  readonly #pools = new Map<string, Pool>();
  #sweeper: ReturnType<typeof setInterval> | undefined;

  dispatch(target: Target, attempt: Attempt): void {
    let pool = this.#pools.get(target.origin);
    if (pool === undefined) {
      pool = new Pool(target, this);
      this.#pools.set(target.origin, pool);
    }
    pool.dispatch(attempt);
  }

  /** A pool with no connection and no attempt waiting is dropped. */
  empty(pool: Pool): void {
    if (this.#pools.get(pool.target.origin) === pool) this.#pools.delete(pool.target.origin);
  }

  /** Starts the sweeper when a connection goes idle; it stops once none is. */
  idle(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => {
      let left = 0;
      for (const pool of this.#pools.values()) left += pool.sweep(performance.now());
      if (left === 0) this.#stopSweeper();
    }, 1_000);
    this.#sweeper.unref();
  }

  close(): void {
    this.#stopSweeper();
    for (const pool of [...this.#pools.values()]) pool.close();
    this.#pools.clear();
  }

  #stopSweeper(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}

/** The connections to one origin: idle ones reused newest first, at most MAX_CONNECTIONS open. */
class Pool {
  readonly idle: Connection[] = [];
  open = 0;
  readonly #waiting: Attempt[] = [];

  constructor(
    readonly target: Target,
    readonly pools: Pools,
  ) {}

  dispatch(attempt: Attempt): void {
    const now = performance.now();
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (connection.fresh(now)) {
        connection.send(attempt);
        return;
      }
      connection.drop();
    }
    if (this.open < MAX_CONNECTIONS) {
      this.open++;
      new Connection(this).send(attempt);
      return;
    }
    attempt.waitingIn = this;
    this.#waiting.push(attempt);
  }

  /** A connection is free again: it takes the next waiting attempt, or waits itself. */
  release(connection: Connection): void {
    const next = this.#waiting.shift();
    if (next !== undefined) {
      next.waitingIn = undefined;
      connection.send(next);
      return;
    }
    this.idle.push(connection);
    this.pools.idle();
  }

  forget(attempt: Attempt): void {
    const at = this.#waiting.indexOf(attempt);
    if (at >= 0) this.#waiting.splice(at, 1);
    if (this.open === 0 && this.#waiting.length === 0) this.pools.empty(this);
  }

  /** A connection closed: a waiting attempt may open another. */
  closed(connection: Connection): void {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.#waiting.shift();
    if (next !== undefined) {
      next.waitingIn = undefined;
      this.dispatch(next);
    } else if (this.open === 0) this.pools.empty(this);
  }

  /** Drops connections idle too long; returns how many are still idle. */
  sweep(now: number): number {
    for (const connection of [...this.idle]) if (!connection.fresh(now)) connection.drop();
    return this.idle.length;
  }

  close(): void {
    for (const connection of [...this.idle]) connection.drop();
  }
}

/** One socket to an origin, carrying one attempt at a time. */
class Connection {
  readonly #socket: Socket;
  #reader = new AnswerReader();
  #attempt: Attempt | undefined;
  #idleSince = 0;
  #keepAliveMs = IDLE_MS;
  #dropped = false;

  constructor(readonly pool: Pool) {
    const { host, port, secure, servername } = pool.target;
    this.#socket = secure
      ? connectTls({ host, port, ...(servername === undefined ? {} : { servername }), ALPNProtocols: ['http/1.1'] })
      : connectTcp({ host, port });
    this.#socket.setNoDelay(true);
    this.#socket.on('data', (chunk: Buffer) => this.#data(chunk));
    this.#socket.on('end', () => this.#end());
    this.#socket.on('error', (error) => this.#attempt?.fail(error));
    this.#socket.on('close', () => this.#closed());
  }

  /** Whether it may carry another webhook: open, and idle for less than the receiver keeps it. */
  fresh(now: number): boolean {
    return !this.#dropped && !this.#socket.destroyed && now - this.#idleSince < this.#keepAliveMs;
  }

  send(attempt: Attempt): void {
    this.#attempt = attempt;
    attempt.connection = this;
    this.#reader = new AnswerReader();
    this.#socket.write(attempt.request);
  }

  /** Closes it at once; an attempt it carried is no longer awaited. */
  drop(): void {
    this.#dropped = true;
    this.#attempt = undefined;
    this.#socket.destroy();
  }

  #data(chunk: Buffer): void {
    const attempt = this.#attempt;
    // Bytes nobody asked for (on an idle connection): the connection is not used again.
    if (attempt === undefined) {
      this.drop();
      return;
    }
    const progress = this.#reader.push(chunk);
    if (progress === Progress.More) return;
    this.#attempt = undefined;
    if (progress === Progress.Invalid) {
      this.drop();
      attempt.fail(invalidAnswer(this.#reader.problem));
      return;
    }
    attempt.answered(this.#reader.status);
    // The receiver's Keep-Alive timeout, less a second for the time its own close takes to arrive.
    const hint = this.#reader.keepAliveMs;
    this.#keepAliveMs = hint === undefined ? IDLE_MS : Math.min(IDLE_MS, hint - 1_000);
    if (!this.#reader.reusable || this.#keepAliveMs <= 0) {
      this.drop();
      return;
    }
    this.#idleSince = performance.now();
    this.pool.release(this);
  }

  /** The receiver closed its side. */
  #end(): void {
    const attempt = this.#attempt;
    this.#attempt = undefined;
    if (attempt !== undefined) {
      const progress = this.#reader.end();
      if (progress === Progress.Done) attempt.answered(this.#reader.status);
      else attempt.fail(progress === Progress.Closed ? resetError() : invalidAnswer(this.#reader.problem));
    }
    this.drop();
  }

  #closed(): void {
    this.#dropped = true;
    this.#attempt?.fail(resetError());
    this.#attempt = undefined;
    this.pool.closed(this);
  }
}

function invalidAnswer(problem: string): Error {
  return Object.assign(new Error(`the answer is not HTTP/1.1: ${problem}`), { code: 'ERR_WEBHOOK_ANSWER', problem });
}
