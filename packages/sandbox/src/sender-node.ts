/// <reference types="node" />
// Webhook attempts on Node: each one written as a single HTTP/1.1 request onto a kept-alive socket
// (webhook-pool.ts), its answer read by AnswerReader. The same contract as the fetch sender (no
// redirect followed, one deadline over the whole attempt, abortable) at about 0.6 of the CPU of
// undici's dispatch API, the cheapest of the clients Node offers: every create sends a webhook, so
// this is a large part of what a create costs (README, Benchmarks).
import type { WebhookSender } from './deliveries.js';
import { Attempt, Pools } from './webhook-pool.js';
import { type Target, targetOf } from './webhook-target.js';

/** Addresses whose split form the sender keeps (the oldest is dropped past it). */
export const MAX_TARGETS = 256;
// A header value cannot hold CR, LF or NUL (they would end it, or start another).
const UNSAFE_VALUE = /[\r\n\u0000]/;

function timeoutError(): Error {
  return Object.assign(new Error('the webhook attempt ran out of time'), { name: 'TimeoutError' });
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
  // not move, and never on the sandbox's `clock`: a deadline for one attempt bounds I/O, so a test
  // clock skipping hours must not time an attempt out, nor one standing still let it hang. The sandbox's reset or close (`signal`, one per generation) stops every attempt of
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
