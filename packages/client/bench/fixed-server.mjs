// A local server that answers every request with one fixed payin record, as fast as node:http
// can: the far end of the lookup benchmark, in its own process so its work is not counted
// against the clients. Prints its port on stdout.
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: 'pi_bench_1',
  reference_id: 'order-1001',
  status: 'executed',
  payment: { amount: 10.5, currency: 'EUR' },
  fee: { amount: 0.3, currency: 'EUR' },
  language: 'en',
  created_at: '2026-05-01T12:30:45.123456',
  updated_at: '2026-05-01T12:31:02.654321',
  expires_at: '2026-05-01T13:30:45.123456',
  error_code: null,
  error_message: null,
});
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('disconnect', () => process.exit(0));
