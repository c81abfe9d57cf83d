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
  // The sandbox's reset or close (`signal`, one per generation) stops every attempt of that
  // generation still under way: one listener per generation, not one per attempt (a listener on an
  // AbortSignal costs more than the rest of an attempt's bookkeeping).
  const underWay = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();
  const send: WebhookSender = (url, { headers, body, signal, timeoutMs }) => {
    let stops = underWay.get(signal);
    if (stops === undefined) {
      // A new signal is a new generation of the sandbox (started, or reset): forget the old addresses.
      targets.clear();
      const mine = new Set<(reason: unknown) => void>();
      underWay.set(signal, mine);
      signal.addEventListener('abort', () => {
        for (const stop of [...mine]) stop(signal.reason);
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
      let abort: ((reason: Error) => void) | undefined;
      let status = 0;
      let received = 0;
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        generation.delete(stop);
        if (error === undefined) resolve(status);
        else reject(error);
      };
      // Before undici has connected there is nothing to abort yet: the attempt just ends.
      const stop = (reason: unknown) => (abort === undefined ? finish(reason) : abort(reason as Error));
      const timer = setTimeout(() => stop(timeoutError()), timeoutMs);
      generation.add(stop);
      // undici's dispatch API with a handler of its own: no response stream, no AbortController
      // per attempt. The answer's body is not used: it is read and dropped so the connection can be
      // used again, up to 64 KiB (past it, the connection is dropped instead).
      agent.dispatch(
        { origin, path, method: 'POST', headers, body },
        {
          onConnect(cancel: (reason?: Error) => void) {
            if (settled) cancel(new Error('the attempt had already ended'));
            else abort = cancel;
          },
          onHeaders(statusCode: number) {
            status = statusCode;
            return true;
          },
          onData(chunk: Uint8Array) {
            received += chunk.byteLength;
            if (received <= MAX_ANSWER_BYTES) return true;
            // The status is the answer; the rest of a huge body is not read (its connection is dropped).
            finish();
            abort?.(new Error('the answer is larger than the sandbox reads'));
            return false;
          },
          onComplete() {
            finish();
          },
          onError(error: unknown) {
            finish(error);
          },
        },
      );
    });
  };
  return {
    send,
    get cached() {
      return targets.size;
    },
    close() {
      void agent.destroy().catch(() => {});
    },
  };
}
