// Why an HTTP attempt got no answer, in a few words: shared by webhook deliveries and the admin
// client. A file of its own, importing nothing, so that a quick command of `pay-sandbox` loads
// neither the server nor the schemas to say its call failed.

/** A webhook attempt that has no answer after this long is a failure. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** The error codes of a connection closed or reset under a request (Node's, undici's and the Node sender's). */
export const RESET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** A short reason for an attempt that got no answer; never the body or a header. */
export function describeFailure(error: unknown): string {
  const e = error as { name?: string; code?: string; problem?: string; cause?: { code?: string; name?: string; message?: string } } | null;
  // fetch puts the system error in `cause`; Node's sockets and the Node sender throw it directly.
  const code = e?.cause?.code ?? e?.code;
  if (
    e?.name === 'TimeoutError' ||
    e?.cause?.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `timeout after ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (typeof code === 'string' && RESET_CODES.has(code)) return 'connection reset';
  // The Node sender's own words for an answer it cannot read (a fixed sentence, never the bytes).
  if (code === 'ERR_WEBHOOK_ANSWER') return `not an HTTP/1.1 answer: ${e?.problem ?? 'unreadable'}`;
  // A name the senders never look up (webhook-target.ts): the reason, a fixed sentence.
  if (code === 'ERR_WEBHOOK_NAME') return e?.problem ?? 'name never looked up';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (typeof code === 'string') return code;
  if (e?.cause?.message === 'bad port') return 'port blocked by fetch (bad port)';
  if (e?.name === 'AbortError') return 'aborted';
  return 'request failed';
}
