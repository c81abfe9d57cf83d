// A webhook receiver on loopback for a test: @pay/webhook's Node handler, configured for the
// environment's merchant and clock, behind a server that can be taken down and brought back up
// on the same address (an outage, as the service sees one: the connection is refused).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '@pay/clock';
import type { WebhookHandlerOptions } from '@pay/webhook';
import { webhookHandler } from '@pay/webhook/node';

/** What a test gives a receiver: the webhook handler options the environment does not fill in. */
export type ReceiverOptions = Omit<WebhookHandlerOptions, 'merchantId' | 'secret' | 'secrets' | 'url' | 'trustProxyHeaders' | 'clock'>;

/** A webhook receiver listening on loopback. */
export interface TestReceiver {
  /** The exact address to give as `webhook_url`. */
  readonly url: string;
  /** Whether it accepts connections right now. */
  readonly isUp: boolean;
  /** Stops listening and drops open connections: the service's next attempt is refused. */
  down(): Promise<void>;
  /** Listens again, on the same address. */
  up(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
}

/** The path a test receiver serves. */
const PATH = '/webhooks/pay';

/** Starts a receiver for `merchant` on `clock`, at `http://127.0.0.1:<free port>/webhooks/pay`. */
export async function startReceiver(
  merchant: { id: string; secret: string },
  clock: Clock,
  options: ReceiverOptions,
): Promise<TestReceiver> {
  if (options === null || typeof options !== 'object') throw new TypeError('receiver options must be an object with at least a handler');
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${PATH}`;
  server.on('request', webhookHandler({ ...options, merchantId: merchant.id, secret: merchant.secret, url, clock }));
  let up = true;
  const stop = async () => {
    if (!up) return;
    up = false;
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  };
  return {
    url,
    get isUp() {
      return up;
    },
    down: stop,
    up: async () => {
      if (up) return;
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      up = true;
    },
    close: stop,
  };
}
