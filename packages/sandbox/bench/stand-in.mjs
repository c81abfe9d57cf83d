// A stand-in for the sandbox in the create-payin benchmark: what any server answering a create must
// do at least, with nothing of the sandbox's own work. node:http reads the request's body and writes
// a fixed answer the size of a create's, with the sandbox's headers; with a webhook URL as its
// argument, it also sends one signed webhook per request through the sandbox's own Node sender, as
// the sandbox does for every create. The benchmark runs it beside the sandbox, so that each run says
// where a create's time goes: the HTTP floor, one webhook, and the rest (the sandbox's own work).
import { signRequest } from '@pay/sign';
import { createServer } from 'node:http';
import { nodeSender } from '../dist/sender-node.js';

const webhookUrl = process.argv[2];
const sender = nodeSender();
const generation = new AbortController().signal;
const answer = JSON.stringify({
  id: 'pi_0123456789abcdefghjk',
  reference_id: 'bench-123456',
  status: 'new',
  payment: { amount: 10.5, currency: 'EUR' },
  method: null,
  fee: null,
  created_at: '2026-11-27T02:33:00.123000',
  updated_at: '2026-11-27T02:33:00.123000',
  expires_at: '2026-11-27T03:33:00.123000',
  error_code: null,
  error_message: null,
  next_action: { type: 'redirect', url: 'http://127.0.0.1:40000/_sandbox/pay/pi_0123456789abcdefghjk' },
});
const headers = [
  ...['x-content-type-options', 'nosniff', 'x-frame-options', 'DENY', 'content-security-policy', "frame-ancestors 'none'"],
  ...['content-type', 'application/json; charset=utf-8', 'cache-control', 'no-store', 'content-length', String(Buffer.byteLength(answer))],
];
const payload = JSON.stringify({ id: 'pi_0123456789abcdefghjk', reference_id: 'bench-123456', status: 'new' });

function webhook() {
  const signed = signRequest({ merchantId: 'm_bench', secret: 'sk_bench_secret', method: 'POST', url: webhookUrl, body: payload });
  const attempt = {
    headers: {
      'content-type': 'application/json',
      'x-merchant-id': signed['x-merchant-id'],
      'x-timestamp': signed['x-timestamp'],
      'x-signature': signed['x-signature'],
    },
    body: payload,
    signal: generation,
    timeoutMs: 10_000,
  };
  sender.send(webhookUrl, attempt).catch(() => {});
}

const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  req
    .on('data', () => {})
    .on('end', () => {
      res.writeHead(200, headers);
      res.end(answer);
      // Left on a timer, as the sandbox's schedule leaves it.
      if (webhookUrl !== undefined) setTimeout(webhook, 0);
    });
});
server.listen(0, '127.0.0.1', () => console.log(`base URL  http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
