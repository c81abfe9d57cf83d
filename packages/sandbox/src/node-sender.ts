/// <reference types="node" />
// Webhook attempts on Node through node:http and node:https with keep-alive agents: the same
// contract as the fetch sender (no redirect followed, a timeout) at a fraction of the cost of
// `fetch`, which matters when every create sends a webhook, and with no dependency.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WebhookSender } from './webhooks.js';

interface Target {
  secure: boolean;
  hostname: string;
  port: string;
  /** The path and query exactly as written in the URL that was signed. */
  path: string;
}

/** A timeout, named as fetch names it, so describeFailure reads both senders the same way. */
class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** A sender and the function that closes its connections. */
export function nodeSender(): { send: WebhookSender; close(): void } {
  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 64 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }) };
  // Split once per address (a merchant's webhooks all go to the same few).
  const targets = new Map<string, Target>();
  const target = (url: string): Target => {
    let found = targets.get(url);
    if (found === undefined) {
      const [, origin = url, rest = ''] = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^#]*)/i.exec(url) ?? [];
      const parsed = new URL(origin);
      found = {
        secure: parsed.protocol === 'https:',
        hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), // an IPv6 literal without its brackets
        port: parsed.port,
        path: rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`,
      };
      if (targets.size < 10_000) targets.set(url, found);
    }
    return found;
  };
  // No abort signal per attempt (each would add a listener to the sandbox's shared one): attempts
  // of a reset sandbox finish and are ignored, and close() drops every connection.
  const send: WebhookSender = (url, { headers, body, timeoutMs }) =>
    new Promise((resolve, reject) => {
      let t: Target;
      try {
        t = target(url);
      } catch (error) {
        reject(error);
        return;
      }
      const request = (t.secure ? httpsRequest : httpRequest)(
        {
          hostname: t.hostname,
          port: t.port || undefined,
          path: t.path,
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: t.secure ? agents.https : agents.http,
        },
        (response) => {
          // The answer's body is not used; reading it to the end frees the connection.
          response.on('error', fail);
          response.on('end', () => {
            clearTimeout(timer);
            resolve(response.statusCode ?? 0);
          });
          response.resume();
        },
      );
      // The whole attempt, not each idle gap, is bounded: a receiver that trickles bytes times out too.
      let timedOut: TimeoutError | undefined;
      const timer = setTimeout(() => request.destroy((timedOut = new TimeoutError(`no answer within ${timeoutMs} ms`))), timeoutMs);
      function fail(error: unknown) {
        clearTimeout(timer);
        // Destroying the request mid-answer also fails the answer ("aborted"): it is still the timeout.
        reject(timedOut ?? error);
      }
      request.on('error', fail);
      request.end(body);
    });
  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
