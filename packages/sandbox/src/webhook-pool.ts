/// <reference types="node" />
// The Node sender's connections: a pool per origin of kept-alive sockets (node:net, or node:tls for
// https), each carrying one attempt at a time, its answer read by AnswerReader. At most
// MAX_CONNECTIONS per origin; attempts past it wait, each with its own deadline (kept by the
// sender). A connection idle longer than the receiver keeps it is closed by one sweeper.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { AnswerReader, Progress } from './webhook-answer.js';
import type { Target } from './webhook-target.js';

/** Connections open at once to one origin; attempts past it wait for one to be free. */
const MAX_CONNECTIONS = 64;
/** How long a connection waits, idle, for the next webhook: under Node's own 5 s server default. */
const IDLE_MS = 4_000;

function resetError(): Error {
  return Object.assign(new Error('the connection closed before the answer'), { code: 'ECONNRESET' });
}

/** One attempt: settled once, by its answer, an error, its deadline, or its generation ending. */
export class Attempt {
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
export class Pools {
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

  /**
   * Starts the sweeper when a connection goes idle; it stops once none is. Real time, whatever the
   * sandbox's clock: closing idle sockets is housekeeping of I/O, not business time.
   */
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
