// The Node sender's reader of a receiver's answer, on a table of answers written by hand from RFC
// 9112 (each fed whole, a byte at a time, and split at every offset): the status, when it is
// complete (exactly at its last byte), and whether the connection may carry the next webhook.
import { describe, expect, it } from 'vitest';
import { AnswerReader, MAX_ANSWER_BYTES, MAX_ANSWER_HEAD_BYTES, Progress } from '../src/webhook-answer.js';

const CRLF = '\r\n';
const head = (...lines: string[]) => lines.join(CRLF) + CRLF + CRLF;

interface Case {
  name: string;
  answer: string;
  status: number;
  reusable: boolean;
  /** Complete only when the connection closes (a body that runs to the close). */
  atClose?: boolean;
  keepAliveMs?: number;
}

const COMPLETE: Case[] = [
  {
    name: '204, as Node answers',
    answer: head('HTTP/1.1 204 No Content', 'Date: x', 'Connection: keep-alive', 'Keep-Alive: timeout=5'),
    status: 204,
    reusable: true,
    keepAliveMs: 5000,
  },
  { name: '200 with a content-length', answer: `${head('HTTP/1.1 200 OK', 'Content-Length: 2')}ok`, status: 200, reusable: true },
  { name: '200 with content-length 0', answer: head('HTTP/1.1 200 OK', 'content-length: 0'), status: 200, reusable: true },
  { name: 'a reason phrase with spaces, and none at all', answer: head('HTTP/1.1 500', 'Content-Length: 0'), status: 500, reusable: true },
  {
    name: 'chunked, with an extension and trailers',
    answer: `${head('HTTP/1.1 202 Accepted', 'Transfer-Encoding: chunked')}5;x=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n`,
    status: 202,
    reusable: true,
  },
  {
    name: 'chunked, no trailers',
    answer: `${head('HTTP/1.1 200 OK', 'transfer-encoding: gzip, chunked')}0\r\n\r\n`,
    status: 200,
    reusable: true,
  },
  {
    name: '100 Continue, then the answer',
    answer: `${head('HTTP/1.1 100 Continue') + head('HTTP/1.1 201 Created', 'Content-Length: 1')}x`,
    status: 201,
    reusable: true,
  },
  {
    name: '103 Early Hints with its own headers, then the answer',
    answer: head('HTTP/1.1 103 Early Hints', 'Link: </a>', 'Keep-Alive: timeout=1') + head('HTTP/1.1 204 No Content'),
    status: 204,
    reusable: true,
  },
  { name: 'Connection: close', answer: head('HTTP/1.1 200 OK', 'Content-Length: 0', 'Connection: close'), status: 200, reusable: false },
  { name: 'HTTP/1.0 closes by default', answer: head('HTTP/1.0 200 OK', 'Content-Length: 0'), status: 200, reusable: false },
  {
    name: 'HTTP/1.0 with keep-alive',
    answer: head('HTTP/1.0 200 OK', 'Content-Length: 0', 'Connection: Keep-Alive'),
    status: 200,
    reusable: true,
  },
  {
    name: 'both Transfer-Encoding and Content-Length: chunked wins, the connection is dropped',
    answer: `${head('HTTP/1.1 200 OK', 'Content-Length: 100', 'Transfer-Encoding: chunked')}0\r\n\r\n`,
    status: 200,
    reusable: false,
  },
  { name: '304 has no body', answer: head('HTTP/1.1 304 Not Modified', 'Content-Length: 100'), status: 304, reusable: true },
  {
    name: 'a redirect is an answer (not followed)',
    answer: head('HTTP/1.1 302 Found', 'Location: https://elsewhere.example/', 'Content-Length: 0'),
    status: 302,
    reusable: true,
  },
  {
    name: 'no length: the body runs to the close',
    answer: `${head('HTTP/1.1 200 OK')}until the end`,
    status: 200,
    reusable: false,
    atClose: true,
  },
  {
    name: 'a coding other than chunked: to the close',
    answer: `${head('HTTP/1.1 200 OK', 'Transfer-Encoding: gzip')}zz`,
    status: 200,
    reusable: false,
    atClose: true,
  },
];

const INVALID: [string, string][] = [
  ['not HTTP at all', 'SSH-2.0-OpenSSH_9.6\r\n\r\n'],
  ['HTTP/2 status line', head('HTTP/2 200')],
  ['a status of two digits', head('HTTP/1.1 20 OK')],
  ['a header line without a colon', head('HTTP/1.1 200 OK', 'Content-Length 0')],
  ['a folded header line', head('HTTP/1.1 200 OK', 'X-A: 1', ' folded', 'Content-Length: 0')],
  ['a negative content-length', head('HTTP/1.1 200 OK', 'Content-Length: -1')],
  ['two different content-lengths', `${head('HTTP/1.1 200 OK', 'Content-Length: 1', 'Content-Length: 2')}xx`],
  ['101 Switching Protocols', head('HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket')],
  ['a chunk size that is not hexadecimal', `${head('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked')}zz\r\n`],
  ['a chunk without its CRLF', `${head('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked')}2\r\nabXY`],
];

/** Feeds `bytes` in the given pieces; the progress after each piece. */
function feed(reader: AnswerReader, bytes: Buffer, cuts: number[]): Progress[] {
  const out: Progress[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= from) continue;
    out.push(reader.push(bytes.subarray(from, cut)));
    from = cut;
  }
  return out;
}

/** Every way to cut an answer: whole, a byte at a time, and in two at each offset. */
function cuttings(length: number): number[][] {
  const all: number[][] = [[], Array.from({ length: length - 1 }, (_, i) => i + 1)];
  for (let i = 1; i < length; i++) all.push([i]);
  return all;
}

describe('AnswerReader: complete answers', () => {
  it.each(COMPLETE)('$name', ({ answer, status, reusable, atClose, keepAliveMs }) => {
    const bytes = Buffer.from(answer, 'latin1');
    for (const cuts of cuttings(bytes.length)) {
      const reader = new AnswerReader();
      const progress = feed(reader, bytes, cuts);
      if (atClose) {
        expect(progress.every((p) => p === Progress.More)).toBe(true);
        expect(reader.end()).toBe(Progress.Done);
      } else {
        // Complete exactly at its last byte, not before.
        expect(progress.at(-1)).toBe(Progress.Done);
        expect(progress.slice(0, -1).every((p) => p === Progress.More)).toBe(true);
      }
      expect(reader.status).toBe(status);
      expect(reader.reusable).toBe(reusable);
      if (keepAliveMs !== undefined) expect(reader.keepAliveMs).toBe(keepAliveMs);
    }
  });

  it('bytes after a complete answer: the status stands, the connection is not used again', () => {
    const reader = new AnswerReader();
    expect(reader.push(Buffer.from(`${head('HTTP/1.1 204 No Content')}HTTP/1.1 200 OK\r\n`))).toBe(Progress.Done);
    expect(reader.status).toBe(204);
    expect(reader.reusable).toBe(false);
  });
});

describe('AnswerReader: what is not an answer', () => {
  it.each(INVALID)('%s', (_name, answer) => {
    const bytes = Buffer.from(answer, 'latin1');
    for (const cuts of cuttings(bytes.length)) {
      const reader = new AnswerReader();
      const progress = feed(reader, bytes, cuts);
      expect(progress.at(-1)).toBe(Progress.Invalid);
      expect(reader.problem).not.toBe('');
      expect(reader.reusable).toBe(false);
    }
  });

  it('a connection closed before any byte is "closed"; one closed mid-answer is invalid', () => {
    expect(new AnswerReader().end()).toBe(Progress.Closed);
    const cut = new AnswerReader();
    expect(cut.push(Buffer.from(`${head('HTTP/1.1 200 OK', 'Content-Length: 10')}abc`))).toBe(Progress.More);
    expect(cut.end()).toBe(Progress.Invalid);
    expect(cut.problem).toMatch(/closed/);
  });
});

describe('AnswerReader: bounded', () => {
  it(`refuses a head longer than ${MAX_ANSWER_HEAD_BYTES} bytes, whole or trickled`, () => {
    const long = `HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(MAX_ANSWER_HEAD_BYTES)}\r\n\r\n`;
    const whole = new AnswerReader();
    expect(whole.push(Buffer.from(long))).toBe(Progress.Invalid);
    const trickled = new AnswerReader();
    const bytes = Buffer.from(long);
    let last: Progress = Progress.More;
    let fed = 0;
    for (let i = 0; i < bytes.length && last === Progress.More; i += 100, fed = i) last = trickled.push(bytes.subarray(i, i + 100));
    expect(last).toBe(Progress.Invalid);
    expect(fed).toBeLessThanOrEqual(MAX_ANSWER_HEAD_BYTES + 200); // it stopped at the limit, not at the end
  });

  it.each([
    ['a content-length body', head('HTTP/1.1 200 OK', `Content-Length: ${10 * MAX_ANSWER_BYTES}`)],
    ['a chunked body', head('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked')],
    ['a body to the close', head('HTTP/1.1 200 OK')],
  ])(`reads at most ${MAX_ANSWER_BYTES} bytes of %s, then takes the status and drops the connection`, (_name, start) => {
    const reader = new AnswerReader();
    expect(reader.push(Buffer.from(start))).toBe(Progress.More);
    const chunked = start.includes('chunked');
    const piece = chunked ? Buffer.from(`4000\r\n${'x'.repeat(0x4000)}\r\n`) : Buffer.alloc(0x4000, 'x');
    let read = 0;
    let progress: Progress = Progress.More;
    while (progress === Progress.More && read < 100 * MAX_ANSWER_BYTES) {
      progress = reader.push(piece);
      read += piece.length;
    }
    expect(progress).toBe(Progress.Done);
    expect(read).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 2 * piece.length);
    expect(reader.status).toBe(200);
    expect(reader.reusable).toBe(false);
  });

  it('refuses a chunk-size line without end', () => {
    const reader = new AnswerReader();
    reader.push(Buffer.from(head('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked')));
    let progress: Progress = Progress.More;
    for (let i = 0; i < 100 && progress === Progress.More; i++) progress = reader.push(Buffer.from('0'.repeat(100)));
    expect(progress).toBe(Progress.Invalid);
  });
});
