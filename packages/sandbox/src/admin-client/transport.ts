// How an admin call travels: a declared contract, and the two web-standard ways to meet it: Fetch
// to a URL, and a Fetch handler in process. The command line uses a third, over node:http
// (transport-node.ts), which starts without loading Node's Fetch (undici): most of a quick
// command's start-up time otherwise.

/** One request as the admin client sends it. */
interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Aborts the request and the reading of its answer (the client's time limit). */
  signal: AbortSignal;
}

/** An answer: its status now, its body when read (which may fail: the answer broke off). */
export interface TransportAnswer {
  status: number;
  text(): Promise<string>;
}

/**
 * Sends one request; resolves once the answer's head arrived, rejects when none did (the error
 * as the platform gives it: retry.ts reads its `code` and `syscall`). Never follows a redirect.
 */
export type Transport = (request: TransportRequest) => Promise<TransportAnswer>;

/** A request as a Fetch `Request`. */
function toRequest(r: TransportRequest): Request {
  return new Request(r.url, {
    method: r.method,
    redirect: 'manual',
    signal: r.signal,
    headers: r.headers,
    ...(r.body === undefined ? {} : { body: r.body }),
  });
}

/** The platform's `fetch`. */
export const fetchTransport: Transport = (r) => fetch(toRequest(r));

/** A Fetch handler in process, such as a `createSandbox()`. */
export function handlerTransport(handler: { fetch(request: Request): Promise<Response> }): Transport {
  return (r) => handler.fetch(toRequest(r));
}
