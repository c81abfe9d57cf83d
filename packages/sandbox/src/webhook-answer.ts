/// <reference types="node" />
// A webhook receiver's HTTP/1.1 answer, read as its bytes arrive (RFC 9112): its status, when it
// is complete, and whether its connection can carry the next webhook. The status is the answer;
// the body is counted and dropped, never kept. Everything a receiver controls is bounded: the head
// at MAX_ANSWER_HEAD_BYTES, the body read at MAX_ANSWER_BYTES (past it the answer counts as
// complete and its connection is dropped), a chunk-size or trailer line at MAX_LINE_BYTES.

/** The most of an answer's head (status line and headers) that is read; a longer one is refused. */
export const MAX_ANSWER_HEAD_BYTES = 16 * 1024;
/** The most of an answer's body that is read; past it the status stands and the connection is dropped. */
export const MAX_ANSWER_BYTES = 64 * 1024;
/** The longest chunk-size line (with extensions) or trailer line read. */
const MAX_LINE_BYTES = 1024;

/** What {@link AnswerReader.push} and {@link AnswerReader.end} found. */
export const Progress = {
  /** The answer is not complete yet. */
  More: 0,
  /** The answer is complete: see `status` and `reusable`. */
  Done: 1,
  /** The bytes are not an HTTP/1.1 answer: see `problem`. */
  Invalid: 2,
  /** The connection closed before any byte of an answer. */
  Closed: 3,
} as const;
export type Progress = (typeof Progress)[keyof typeof Progress];

// Where the reader is in the answer.
const State = { Head: 0, Length: 1, ChunkSize: 2, ChunkData: 3, ChunkEnd: 4, Trailers: 5, UntilClose: 6, Over: 7, Failed: 8 } as const;
type State = (typeof State)[keyof typeof State];

const CRLF2 = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-5][0-9][0-9])(?: [^\r\n]*)?$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DECIMAL = /^[0-9]{1,15}$/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,8})[ \t]*(?:;.*)?$/;

/** One answer on one connection; a new reader for each webhook sent. */
export class AnswerReader {
  /** The final status (a 1xx interim answer is skipped); 0 until the head is read. */
  status = 0;
  /** Whether the connection may carry another request once this answer is complete. */
  reusable = true;
  /** The receiver's `Keep-Alive: timeout=` in ms, when it gave one. */
  keepAliveMs: number | undefined;
  /** Why the bytes are not an answer (when push or end returned Invalid). */
  problem = '';
  #state: State = State.Head;
  // Head bytes that arrived in more than one chunk, gathered here (bounded by MAX_ANSWER_HEAD_BYTES).
  #head: Buffer | undefined;
  #headUsed = 0;
  #remaining = 0;
  #bodyBytes = 0;
  #line = '';
  #seen = false;

  /** Reads the next bytes of the answer. */
  push(chunk: Buffer): Progress {
    this.#seen ||= chunk.length > 0;
    let at = 0;
    while (at < chunk.length) {
      switch (this.#state) {
        case State.Head: {
          const next = this.#readHead(chunk, at);
          if (next < 0) return next === -1 ? Progress.More : Progress.Invalid;
          at = next;
          // An answer without a body (204, 304, a zero content-length) ends with its head.
          if ((this.#state as State) === State.Over) return this.#done(chunk.length - at);
          break;
        }
        case State.Length:
        case State.ChunkData: {
          const take = Math.min(this.#remaining, chunk.length - at);
          at += take;
          this.#remaining -= take;
          if (this.#body(take)) return Progress.Done;
          if (this.#remaining > 0) break;
          // A content-length body ends the answer; a chunk's data is followed by its CRLF.
          if (this.#state === State.Length) return this.#done(chunk.length - at);
          this.#state = State.ChunkEnd;
          break;
        }
        case State.UntilClose: {
          const take = chunk.length - at;
          at += take;
          if (this.#body(take)) return Progress.Done;
          break;
        }
        case State.ChunkSize:
        case State.ChunkEnd:
        case State.Trailers: {
          const end = chunk.indexOf(10, at); // LF
          const piece = chunk.toString('latin1', at, end < 0 ? chunk.length : end + 1);
          at += piece.length;
          if (this.#line.length + piece.length > MAX_LINE_BYTES) return this.#invalid('a chunked body line is too long');
          this.#line += piece;
          // What ends a chunk's data is CRLF and nothing else: anything more is refused at once.
          if (this.#state === State.ChunkEnd && !'\r\n'.startsWith(this.#line)) return this.#invalid('a chunk does not end with CRLF');
          if (end < 0) break;
          const line = this.#line;
          this.#line = '';
          if (!line.endsWith('\r\n')) return this.#invalid('a chunked body line does not end with CRLF');
          const progress = this.#chunkLine(line.slice(0, -2), chunk.length - at);
          if (progress !== Progress.More) return progress;
          break;
        }
        case State.Over:
          // Bytes after a complete answer: nothing was asked for, so the connection is not used again.
          this.reusable = false;
          return Progress.Done;
        case State.Failed:
          return Progress.Invalid;
      }
    }
    return Progress.More;
  }

  /** The connection closed: complete when the body runs to the close, else the answer was cut. */
  end(): Progress {
    if (this.#state === State.UntilClose) {
      this.reusable = false;
      this.#state = State.Over;
      return Progress.Done;
    }
    if (this.#state === State.Over) return Progress.Done;
    if (this.#state === State.Failed) return Progress.Invalid;
    if (!this.#seen) return Progress.Closed;
    return this.#invalid('the connection closed in the middle of the answer');
  }

  /** Reads head bytes from `at`: the offset after the head, -1 for more, -2 when invalid. */
  #readHead(chunk: Buffer, at: number): number {
    let text: string;
    let next: number;
    if (this.#head === undefined) {
      const end = chunk.indexOf(CRLF2, at);
      if (end >= 0 && end - at <= MAX_ANSWER_HEAD_BYTES) {
        text = chunk.toString('latin1', at, end);
        next = end + 4;
      } else {
        // The head goes on in the next chunk (or is too long): gathered, up to the limit.
        const size = chunk.length - at;
        if (end >= 0 || size > MAX_ANSWER_HEAD_BYTES) return this.#headTooLong();
        this.#head = Buffer.allocUnsafe(MAX_ANSWER_HEAD_BYTES + 4);
        chunk.copy(this.#head, 0, at);
        this.#headUsed = size;
        return -1;
      }
    } else {
      // The end may straddle the chunks: search from three bytes back.
      const from = Math.max(0, this.#headUsed - 3);
      const room = this.#head.length - this.#headUsed;
      const copied = chunk.copy(this.#head, this.#headUsed, at, at + Math.min(room, chunk.length - at));
      this.#headUsed += copied;
      const end = this.#head.subarray(0, this.#headUsed).indexOf(CRLF2, from);
      if (end < 0 || end > MAX_ANSWER_HEAD_BYTES) {
        if (this.#headUsed > MAX_ANSWER_HEAD_BYTES) return this.#headTooLong();
        return -1;
      }
      text = this.#head.toString('latin1', 0, end);
      next = at + (end + 4 - (this.#headUsed - copied));
      this.#head = undefined;
      this.#headUsed = 0;
    }
    return this.#parseHead(text) ? next : -2;
  }

  #headTooLong(): -2 {
    this.#invalid('the answer head is longer than the sandbox reads');
    return -2;
  }

  /** Parses a head; false when it is not one. Sets the state for what follows it. */
  #parseHead(text: string): boolean {
    const lines = text.split('\r\n');
    const status = STATUS_LINE.exec(lines[0]!);
    if (status === null) return this.#refuse('the answer does not start with an HTTP/1.x status line');
    const code = Number(status[2]);
    let length: string | undefined;
    let chunked = false;
    let encoded = false;
    let close = status[1] === '0'; // HTTP/1.0 closes unless it says keep-alive
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) return this.#refuse('an answer header line is not "name: value"');
      const value = line.slice(colon + 1).trim();
      switch (name.toLowerCase()) {
        case 'content-length':
          if (!DECIMAL.test(value) || (length !== undefined && length !== value))
            return this.#refuse('the answer has an unusable content-length');
          length = value;
          break;
        case 'transfer-encoding': {
          encoded = true;
          const codings = value.toLowerCase().split(',');
          chunked = codings[codings.length - 1]!.trim() === 'chunked';
          break;
        }
        case 'connection': {
          const options = value
            .toLowerCase()
            .split(',')
            .map((o) => o.trim());
          if (options.includes('close')) close = true;
          else if (options.includes('keep-alive')) close = false;
          break;
        }
        case 'keep-alive': {
          const timeout = /(?:^|[,;\s])timeout=([0-9]{1,6})(?:$|[,;\s])/i.exec(value);
          if (timeout !== null) this.keepAliveMs = Number(timeout[1]) * 1000;
          break;
        }
      }
    }
    if (code < 200) {
      // An interim answer (100 Continue, 103 Early Hints) comes before the final one; 101 would
      // switch protocols, which nothing here asked for.
      if (code === 101) return this.#refuse('the receiver switched protocols');
      this.keepAliveMs = undefined;
      return true;
    }
    this.status = code;
    if (close) this.reusable = false;
    if (code === 204 || code === 304) this.#state = State.Over;
    else if (encoded) {
      // A Transfer-Encoding overrides a Content-Length; a connection that had both is not used again.
      if (length !== undefined) this.reusable = false;
      if (chunked) this.#state = State.ChunkSize;
      else {
        this.#state = State.UntilClose;
        this.reusable = false;
      }
    } else if (length !== undefined) {
      this.#remaining = Number(length);
      this.#state = this.#remaining === 0 ? State.Over : State.Length;
    } else {
      this.#state = State.UntilClose;
      this.reusable = false;
    }
    return true;
  }

  /** Counts body bytes; true (done, connection dropped) once past MAX_ANSWER_BYTES. */
  #body(bytes: number): boolean {
    this.#bodyBytes += bytes;
    if (this.#bodyBytes <= MAX_ANSWER_BYTES) return false;
    this.reusable = false;
    this.#state = State.Over;
    return true;
  }

  #chunkLine(line: string, left: number): Progress {
    if (this.#state === State.ChunkEnd) {
      if (line !== '') return this.#invalid('a chunk does not end with CRLF');
      this.#state = State.ChunkSize;
      return Progress.More;
    }
    if (this.#state === State.Trailers) return line === '' ? this.#done(left) : Progress.More;
    const size = CHUNK_SIZE.exec(line);
    if (size === null) return this.#invalid('a chunk size is not hexadecimal');
    this.#remaining = parseInt(size[1]!, 16);
    this.#state = this.#remaining === 0 ? State.Trailers : State.ChunkData;
    return Progress.More;
  }

  /** The answer is complete; `left` bytes came after it (which nothing asked for). */
  #done(left: number): Progress {
    this.#state = State.Over;
    if (left > 0) this.reusable = false;
    return Progress.Done;
  }

  #refuse(problem: string): false {
    this.#invalid(problem);
    return false;
  }

  #invalid(problem: string): typeof Progress.Invalid {
    this.problem = problem;
    this.reusable = false;
    this.#state = State.Failed;
    return Progress.Invalid;
  }
}
