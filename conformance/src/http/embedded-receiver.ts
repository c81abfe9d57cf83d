// A webhook receiver built on the reference implementation (@pay/webhook's Node adapter), on
// loopback, for the default run of the webhook-endpoint mode. It verifies against the exact
// configured URL, never one rebuilt from the incoming request.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookHandler } from '@pay/webhook/node';
import type { Addressee } from './webhook-endpoint/cases.js';

/** A running receiver: its exact URL, the merchant and secret it verifies with, and how to stop it. */
export interface EmbeddedReceiver extends Addressee {
  close(): Promise<void>;
}

/** Starts a receiver on a random loopback port, at `path`, for one merchant with a random secret. */
export async function startEmbeddedReceiver(path = '/webhooks/pay'): Promise<EmbeddedReceiver> {
  const merchantId = 'm_conformance';
  const secret = `sk_test_${randomBytes(16).toString('hex')}`;
  const server = createServer();
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${path}`;
  // The runner sends the same event more than once (a re-delivery, signed again): each delivery must
  // be verified and answered on its own merits, so duplicate handling is off; refusals are expected.
  server.on('request', webhookHandler({ merchantId, secret, url, handler: () => {}, store: false, onRefused: () => {} }));
  return {
    url,
    merchantId,
    secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
