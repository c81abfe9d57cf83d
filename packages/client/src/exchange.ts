// One HTTP exchange, the part that differs between runtimes: send a request's exact bytes and read
// at most READ_LIMIT bytes of the answer. Two implementations answer to `#exchange` (see
// package.json): `exchange-node.ts` on Node's own HTTP stack, `exchange-fetch.ts` wherever fetch
// exists. Everything else (time limits, the caller's signal, hooks, what a failure means) is the
// same for both and lives in `call.ts`.
import type { Endpoint } from '@pay/schema';

/** Bytes of an answer read at most; the rest is never read. */
export const READ_LIMIT = 1024 * 1024;

/** A request to send. */
export interface Request {
  /** The interface's endpoint it calls: what names it in telemetry. */
  readonly endpoint: Endpoint;
  readonly method: 'GET' | 'POST';
  /** The URL, WHATWG-serialised: the string signed is the string sent. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array<ArrayBuffer>;
  /** The URL as hooks and telemetry may show it (a push address has its token masked). */
  readonly shownUrl?: string;
  /** Removes card data the service might echo from the answer before anyone sees it. */
  readonly redact?: (text: string) => string;
}

/** What an exchange came to. Never a rejection: a failure is a value. */
export type Exchanged =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Headers; readonly text: string; readonly truncated: boolean }
  /**
   * `answered`: the status and headers had arrived (the failure came while reading the body).
   * `unsent`: stopped while still waiting for a connection, so no byte of it left.
   */
  | { readonly kind: 'failed'; readonly error: unknown; readonly answered: boolean; readonly unsent?: true };

/** An exchange under way. */
export interface Exchange {
  /** Stops it: `done` then settles as failed, soon. Does nothing once `done` has settled. */
  abort(): void;
  readonly done: Promise<Exchanged>;
}

/** Starts an exchange: the request is on its way when this returns. Never throws. */
export type Exchanger = (request: Request) => Exchange;

const decoder = /* @__PURE__ */ new TextDecoder();

/**
 * An answer's body as it arrives, kept up to READ_LIMIT bytes: both exchanges collect through it,
 * so the limit is enforced in one place.
 */
export class Body {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  /** Keeps `chunk`, or the part of it that fits; false once the limit is reached (read no more). */
  add(chunk: Uint8Array): boolean {
    if (this.size + chunk.byteLength > READ_LIMIT) {
      this.chunks.push(chunk.subarray(0, READ_LIMIT - this.size));
      this.size = READ_LIMIT;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    return true;
  }

  /** UTF-8 text of what was kept (a leading BOM dropped, as `Response.text()` does). */
  text(): string {
    const { chunks } = this;
    if (chunks.length === 1) return decoder.decode(chunks[0]);
    const all = new Uint8Array(this.size);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.byteLength;
    }
    return decoder.decode(all);
  }
}
