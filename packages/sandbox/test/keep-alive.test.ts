// Kept-alive connections on the Node host: the sandbox tells clients 5 s and keeps an idle
// connection open longer, so a client whose timer fires late (a busy machine) never sends its next
// request on a connection the sandbox is closing. Over a raw socket, to see the bytes.
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/index.js';

let sandbox: RunningSandbox | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await sandbox?.close();
});

/** Sends one GET on the socket and reads its whole answer (a content-length body). */
function exchange(s: Socket, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
      if (end >= 0 && text.length >= end + 4 + length) {
        s.off('data', onData).off('close', onClose);
        resolve(text.slice(0, end));
      }
    };
    const onClose = () => reject(new Error(`the sandbox closed the connection; got ${JSON.stringify(text)}`));
    s.on('data', onData).on('close', onClose);
    s.write(`GET /_sandbox/health HTTP/1.1\r\nhost: ${host}\r\n\r\n`);
  });
}

it('announces Keep-Alive: timeout=5 once, and still answers on the connection after 6 s idle', async () => {
  sandbox = await startSandbox();
  const { host, port } = new URL(sandbox.url);
  socket = connect(Number(port), '127.0.0.1');
  const first = await exchange(socket, host);
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  expect(first.match(/\r\nkeep-alive: [^\r]*/gi)).toEqual(['\r\nkeep-alive: timeout=5']);
  expect(first).toMatch(/\r\nConnection: keep-alive/i);
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  const second = await exchange(socket, host);
  expect(second).toMatch(/^HTTP\/1\.1 200 /);
}, 20_000);
