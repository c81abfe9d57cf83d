// The admin client's transport over node:http (and node:https for a sandbox behind TLS), for the
// command line: a quick command that went through `fetch` would spend most of its start loading
// Node's Fetch implementation. Same contract as transport.ts: no redirect followed, the signal
// aborts the request and the reading of its answer.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Transport } from './transport.js';

/** Sends over node:http(s); the answer's body is read as UTF-8 when asked for. */
export const nodeTransport: Transport = async (r) => {
  const url = new URL(r.url);
  const request = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const headers = { ...r.headers, ...(r.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(r.body)) }) };
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(url, { method: r.method, headers, signal: r.signal }, resolve);
    sent.once('error', reject);
    sent.end(r.body);
  });
  return {
    status: response.statusCode ?? 0,
    text: () =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.once('error', reject);
        response.once('aborted', () => reject(Object.assign(new Error('the answer broke off'), { code: 'ECONNRESET' })));
      }),
  };
};
