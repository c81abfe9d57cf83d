/// <reference types="node" />
// Webhook attempts on Node through undici's request API with keep-alive connection pools: the
// same contract as the fetch sender (no redirect followed, one deadline, abortable) at a fraction
// of the cost of `fetch` or node:http, which matters when every create sends a webhook.
import { setMaxListeners } from 'node:events';
import { Agent } from 'undici';
import type { WebhookSender } from './deliveries.js';

function timeoutError(): Error {
  return Object.assign(new Error('the webhook attempt ran out of time'), { name: 'TimeoutError' });
}

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
  // The sandbox's reset or close (`signal`) stops the attempt too.
  // Every attempt in flight listens to the sandbox's signal for as long as it runs: many at once
  // are expected, not a leak, so Node's warning past ten listeners is turned off for it.
  const raised = new WeakSet<AbortSignal>();
  const send: WebhookSender = async (url, { headers, body, signal, timeoutMs }) => {
    if (!raised.has(signal)) {
      // A new signal is a new generation of the sandbox (started, or reset): forget the old addresses.
      setMaxListeners(0, signal);
      raised.add(signal);
      targets.clear();
    }
    const { origin, path } = target(url);
    const attempt = new AbortController();
    const stop = () => attempt.abort(signal.aborted ? signal.reason : timeoutError());
    const timer = setTimeout(stop, timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    try {
      const answer = await agent.request({ origin, path, method: 'POST', headers, body, signal: attempt.signal });
      await answer.body.dump({ limit: 64 * 1024, signal: attempt.signal }); // the answer's body is not used; reading it to the end frees the connection
      if (attempt.signal.aborted) throw attempt.signal.reason;
      return answer.statusCode;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
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
