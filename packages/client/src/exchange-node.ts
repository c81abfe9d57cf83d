// Exchanges over Node's own HTTP stack (`node:http`, `node:https`, their global keep-alive
// agents): the default on Node, selected by the `node` condition of `#exchange`.
//
// Why not fetch here too: Node's fetch is built on Node's sockets with a web-standard layer on
// top (streams, Headers, a Request object that follows every AbortSignal it is given with a
// listener, a WeakRef and a finaliser). On a warm loopback connection a lookup over raw node:http
// has the higher throughput (the README's benchmark section has the measured ratio), and a client
// that must bound every attempt would pay fetch's signal cost on every call. Here an attempt is stopped
// by destroying its request, and the body is collected as it arrives.
/// <reference types="node" />
import type { IncomingMessage } from 'node:http';
// The modules' own objects, read at each request: a tool that replaces `request` or the global
// agents later (a proxy agent, a test's interceptor) is seen, as by any Node library.
import http from 'node:http';
import https from 'node:https';
import type { Exchange, Exchanged, Request } from './exchange.js';
import { Body } from './exchange.js';

/** Sends `request` on the global agent of its scheme; reads at most READ_LIMIT bytes of the answer. */
export function exchange(request: Request): Exchange {
  let settle!: (exchanged: Exchanged) => void;
  const done = new Promise<Exchanged>((resolve) => (settle = resolve));
  let settled = false;
  let answered = false;
  const finish = (exchanged: Exchanged) => {
    if (settled) return;
    settled = true;
    settle(exchanged);
  };
  const fail = (error: unknown) => finish({ kind: 'failed', error, answered });
  const { method, url, headers, body } = request;
  try {
    const req = (url.startsWith('https:') ? https : http).request(url, { method, headers });
    req.on('error', fail);
    // A request closed with no answer and no error (destroyed without one) still ends the exchange.
    req.on('close', () => {
      if (!answered) fail(new Error('the connection closed before an answer'));
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      read(res, finish, fail);
    });
    // The whole body in end(), nothing written before: Node sends it with its Content-Length, not
    // chunked.
    req.end(body);
    const abort = () => {
      // Still waiting for a connection (an agent with maxSockets, all busy): Node settles a
      // destroyed request only once a socket is handed to it, which may be long after the time
      // limit. Nothing was written, so it ends here, as not sent.
      if (!answered && req.socket === null)
        finish({ kind: 'failed', error: new Error('aborted while waiting for a connection'), answered: false, unsent: true });
      req.destroy(new Error('aborted'));
    };
    return { abort, done };
  } catch (error) {
    // Node refused the request before sending anything (a header or URL it cannot write): sockets
    // are handed out on a later tick, so no byte left.
    finish({ kind: 'failed', error, answered: false, unsent: true });
    return { abort: () => {}, done };
  }
}

/** Collects the body, at most READ_LIMIT bytes; at the limit the connection is dropped. */
function read(res: IncomingMessage, finish: (exchanged: Exchanged) => void, fail: (error: unknown) => void): void {
  const body = new Body();
  let cut = false;
  const answer = (truncated: boolean) => {
    // `Headers` checks names and values again: should it refuse one Node's parser let through,
    // the exchange fails rather than throwing in an event listener.
    try {
      finish({ kind: 'answer', status: res.statusCode ?? 0, headers: headersOf(res.rawHeaders), text: body.text(), truncated });
    } catch (error) {
      fail(error);
    }
  };
  res.on('data', (chunk: Buffer) => {
    if (cut || body.add(chunk)) return;
    cut = true;
    answer(true);
    res.destroy();
  });
  let ended = false;
  res.on('end', () => {
    ended = true;
    answer(false);
  });
  res.on('error', fail);
  // Closed before the end: the connection dropped mid-body. (Every answer closes after its end; an
  // Error is made only when needed, as making one costs a stack trace.)
  res.on('close', () => {
    if (!ended && !cut) fail(new Error('the connection closed before the answer was complete'));
  });
}

/** The answer's headers as a web `Headers`, as fetch would give them. */
function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
