/// <reference types="node" />
// Webhook attempts on Node through undici's dispatch API with keep-alive connection pools: the
// same contract as the fetch sender (no redirect followed, one deadline, abortable) at a fraction
// of the cost of `fetch`, node:http or undici's own request API, which matters when every create
// sends a webhook.
import { Agent } from 'undici';
import type { WebhookSender } from './deliveries.js';

function timeoutError(): Error {
  return Object.assign(new Error('the webhook attempt ran out of time'), { name: 'TimeoutError' });
}

/** The most of a webhook answer's body the sender reads (the body is not used). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Addresses whose split form the sender keeps (the oldest is dropped past it). */
export const MAX_TARGETS = 256;

/** A sender and the function that closes its connections. */
export function nodeSender(): { send: WebhookSender; readonly cached: number; close(): void } {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 4_000 });
  // Split once per address (a merchant's webhooks all go to the same few): the origin, and the
  // path and query exactly as written in the URL that was signed. Bounded (MAX_TARGETS addresses,
  // each at most a kept URL's length), and emptied when the sandbox resets: it holds webhook URLs,
  // which must not outlive the transactions they came from.
  const targets = new Map<string, { origin: string; path: string }>();
  const target = (url: string) => {
    let found = targets.get(url);
    if (found === undefined) {
      const [, origin = url, rest = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^#]*)/i.exec(url) ?? [];
      const path = rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`;
      found = { origin: new URL(origin).origin, path };
      if (targets.size >= MAX_TARGETS) targets.delete(targets.keys().next().value!);
      targets.set(url, found);
    }
    return found;
  };
  // One deadline per attempt, from connecting to the answer's last byte: undici's own timeouts
  // restart on every chunk, so a receiver trickling a byte every few seconds would never time out.
  // Attempts under way are kept in one set, and one timer is armed for the earliest deadline among
  // them (a timer per attempt cost more than the rest of its bookkeeping); deadlines are on the
  // monotonic clock, which a change of the wall clock does not move. The
  // sandbox's reset or close (`signal`, one per generation) stops every attempt of that
  // generation still under way: one listener per generation, not one per attempt.
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
    let origin: string;
    let path: string;
    try {
      ({ origin, path } = target(url));
    } catch (error) {
      return Promise.reject(error);
    }
    const generation = stops;
    return new Promise<number>((resolve, reject) => {
      const attempt = new Attempt(resolve, reject, performance.now() + timeoutMs, generation, inFlight);
      generation.add(attempt);
      inFlight.add(attempt);
      arm(attempt.deadline);
      // undici's dispatch API with a handler of its own: no response stream, no AbortController
      // per attempt.
      agent.dispatch({ origin, path, method: 'POST', headers, body }, attempt);
    });
  };
  return {
    send,
    get cached() {
      return targets.size;
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      void agent.destroy().catch(() => {});
    },
  };
}

/**
 * One attempt, as undici's dispatch handler: its methods are called as the answer comes. The
 * answer's body is not used: it is read and dropped so the connection can be used again, up to
 * MAX_ANSWER_BYTES (past it, the connection is dropped instead).
 */
class Attempt {
  #abort: ((reason: Error) => void) | undefined;
  #status = 0;
  #received = 0;
  #settled = false;

  constructor(
    readonly resolve: (status: number) => void,
    readonly reject: (error: unknown) => void,
    /** When it is given up, on the clock of performance.now(). */
    readonly deadline: number,
    readonly generation: Set<Attempt>,
    readonly inFlight: Set<Attempt>,
  ) {}

  /** Stops it (deadline, reset, close). Before undici has connected there is nothing to abort yet: it just ends. */
  stop(reason: unknown): void {
    if (this.#abort === undefined) this.#finish(reason);
    else this.#abort(reason as Error);
  }

  #finish(error?: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.generation.delete(this);
    this.inFlight.delete(this);
    if (error === undefined) this.resolve(this.#status);
    else this.reject(error);
  }

  onConnect(cancel: (reason?: Error) => void): void {
    if (this.#settled) cancel(new Error('the attempt had already ended'));
    else this.#abort = cancel;
  }

  onHeaders(statusCode: number): boolean {
    this.#status = statusCode;
    return true;
  }

  onData(chunk: Uint8Array): boolean {
    this.#received += chunk.byteLength;
    if (this.#received <= MAX_ANSWER_BYTES) return true;
    // The status is the answer; the rest of a huge body is not read (its connection is dropped).
    this.#finish();
    this.#abort?.(new Error('the answer is larger than the sandbox reads'));
    return false;
  }

  onComplete(): void {
    this.#finish();
  }

  onError(error: unknown): void {
    this.#finish(error);
  }
}
