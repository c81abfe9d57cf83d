// The shop on Node: an HTTP server (through @hono/node-server) around createShop. The public URL
// is known only once the port is (port 0 picks one), so the shop is made after listening; until
// its database is open it answers 503 (a webhook is then retried by the service).
import { createAdaptorServer, type HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createShop, type Shop } from './app.js';
import type { ShopConfig } from './config.js';
import type { OrderBook } from './orders.js';
import { openPayments, type PaymentsOptions } from './payments.js';
import { webhookFailures } from './test-controls.js';

/** A running shop. */
export interface RunningShop {
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Its public address (the listening one unless `publicUrl` was given). */
  publicUrl: string;
  webhookUrl: string;
  /** Its orders, read from the database. */
  orders: Pick<OrderBook, 'get' | 'list' | 'events'>;
  /** The database, in words (never its URL). */
  database: string;
  /** Stops listening, closes open connections, stops the reconciler and closes the database. */
  close(): Promise<void>;
}

/** Starts the shop. Rejects when the port cannot be listened on (the error's `code`, e.g. EADDRINUSE) or the database fails. */
export async function startShop(
  config: ShopConfig & Pick<PaymentsOptions, 'client' | 'reconcileEveryMs'> & { log?: (line: string) => void },
): Promise<RunningShop> {
  const log = config.log ?? (() => {});
  let shop: Shop | undefined;
  const server = createAdaptorServer({
    // An HTTP/1 server: its bindings are always HttpBindings.
    fetch: (request, env) =>
      shop ? shop.fetch(request, env as HttpBindings) : new Response('Starting, try again in a moment', { status: 503 }),
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const { port } = server.address() as AddressInfo;
  // Listening on every interface: the shop is reached on the loopback one from this machine.
  const reachable = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const host = reachable.includes(':') ? `[${reachable}]` : reachable;
  const url = `http://${host}:${port}`;
  const publicUrl = config.publicUrl ?? url;
  const failures = config.testControls ? webhookFailures() : undefined;
  let payments;
  try {
    payments = await openPayments({ ...config, log, ...(failures ? { failures } : {}) });
  } catch (error) {
    await stopListening();
    throw error;
  }
  try {
    // The port actually listened on (config.port may be 0): the shop answers to loopback names on it.
    shop = createShop({ ...config, publicUrl, port, payments, log, ...(failures ? { failures } : {}) });
  } catch (error) {
    await stopListening();
    await payments.close();
    throw error;
  }
  const { orders } = payments;
  return {
    url,
    publicUrl,
    webhookUrl: shop.webhookUrl,
    orders,
    database: payments.database,
    close: async () => {
      await stopListening();
      await payments.close();
    },
  };
}
