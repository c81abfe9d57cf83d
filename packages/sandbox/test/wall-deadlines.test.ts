// The deadlines that run on wall time, not on the sandbox's clock, waited out for real: a webhook
// attempt's 10 s, from its start to the answer's last byte (a receiver that never answers, one that
// trickles its answer, many slow receivers behind one clock advance), and how long the Node host
// keeps an idle connection open. Each case waits and computes next to nothing meanwhile, so they
// run at once (describe.concurrent), each on a sandbox of its own: a clock advance waits for the
// attempts under way on its sandbox, and on no other.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { adminCall, attemptsSettled, M1, payinBody, post, start, trickler } from './helpers.js';

/** Receivers on loopback that read the webhook and never answer; `close` drops what they hold. */
async function silentReceivers(count: number) {
  const held: Socket[] = [];
  let arrivedAt = 0;
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer((req: IncomingMessage, _res: ServerResponse) => {
        held.push(req.socket);
        req.resume().on('end', () => (arrivedAt ||= Date.now()));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  return {
    urls: servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`),
    /** When the first webhook was read in full (0 before). */
    arrivedAt: () => arrivedAt,
    close: async () => {
      for (const socket of held) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

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

describe.concurrent('deadlines on wall time, waited out at once', () => {
  it('a receiver that never answers: the attempt is given up after the full 10 s, as a timeout', async () => {
    const silent = await silentReceivers(1);
    const sb = await start();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'silent-1', webhook_url: silent.urls[0] }));
      const log = await attemptsSettled(sb, created.body.id, 1);
      const failedAt = Date.now();
      expect(log[0]).toMatchObject({ attempt: 1, response_status: null, error: 'timeout after 10 s' });
      expect(silent.arrivedAt()).toBeGreaterThan(0);
      // Not before its limit. The receiver sees the request after the sender's timer started, so
      // this measures the limit less that lag, which a loaded machine stretches past 50 ms: a 1 s
      // margin still tells the 10 s limit from a shorter one.
      expect(failedAt - silent.arrivedAt()).toBeGreaterThanOrEqual(9_000);
    } finally {
      await sb.close();
      await silent.close();
    }
  });

  it('a receiver that trickles its answer: given up after one deadline for the whole attempt, and a clock advance answers', async () => {
    const slow = await trickler();
    const sb = await start();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: slow.url }));
      // Waits for attempts under way: it must come back once the attempt's deadline has passed.
      const advanced = await adminCall(sb, 'POST', '/clock/advance', { seconds: 1 });
      expect(advanced.status).toBe(200);
      const [first] = (await adminCall(sb, 'GET', `/deliveries?transaction_id=${created.body.id}`)).body;
      expect(first).toMatchObject({ attempt: 1, response_status: null, error: 'timeout after 10 s' });
      expect(slow.closed.length).toBeGreaterThanOrEqual(1); // the sandbox hung up
    } finally {
      await sb.close();
      await slow.close();
    }
  });

  it('a clock advance answers without waiting for every slow receiver in turn: attempts still under way finish in the background', async () => {
    // Receivers that read the webhook and never answer (each attempt runs to its 10 s deadline).
    const silent = await silentReceivers(10);
    const sandbox = await start({ merchants: [M1] });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) {
        const created = await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ webhook_url: silent.urls[i % silent.urls.length] }));
        expect(created.status).toBe(200);
        ids.push(created.body.id);
      }
      await sandbox.admin.advance(1);
      const attempts = await sandbox.admin.deliveries();
      // Every payin's first webhook was attempted...
      for (const id of ids) expect(attempts.some((a) => a.transaction_id === id && a.attempt === 1 && a.sent_at !== null)).toBe(true);
      // ...and the advance answered while some attempts were still under way (sent, unanswered):
      // waiting for each in turn, it would have answered only once none was.
      const underWay = attempts.filter((a) => a.sent_at !== null && a.response_status === null && a.error === null);
      expect(underWay.length).toBeGreaterThan(0);
      // Those that ended did so on their deadline, never with an answer.
      for (const a of attempts.filter((x) => x.error !== null)) expect(a.error).toBe('timeout after 10 s');
    } finally {
      await sandbox.close();
      await silent.close();
    }
  });

  // The sandbox tells clients 5 s and keeps an idle connection open longer, so a client whose
  // timer fires late (a busy machine) never sends its next request on a connection the sandbox is
  // closing. Over a raw socket, to see the bytes.
  it('a kept-alive connection: the Node host announces Keep-Alive: timeout=5 once, and still answers on it after 6 s idle', async () => {
    const sandbox = await start();
    const { host, port } = new URL(sandbox.url);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      const first = await exchange(socket, host);
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first.match(/\r\nkeep-alive: [^\r]*/gi)).toEqual(['\r\nkeep-alive: timeout=5']);
      expect(first).toMatch(/\r\nConnection: keep-alive/i);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await exchange(socket, host);
      expect(second).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
      await sandbox.close();
    }
  });
});
