// The shop on Node: an HTTP server (through @hono/node-server) around createShop. The public URL
// is known only once the port is (port 0 picks one), so the shop is made after listening.
import { createAdaptorServer, type HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createShop, type Shop, type ShopOptions } from './app.js';
import type { ShopConfig } from './config.js';

/** A running shop. */
export interface RunningShop {
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Its public address (the listening one unless `publicUrl` was given). */
  publicUrl: string;
  webhookUrl: string;
  orders: Shop['orders'];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Starts the shop. Rejects when the port cannot be listened on (the error's `code`, e.g. EADDRINUSE). */
export async function startShop(config: ShopConfig & Pick<ShopOptions, 'log' | 'client'>): Promise<RunningShop> {
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
  const { port } = server.address() as AddressInfo;
  // Listening on every interface: the shop is reached on the loopback one from this machine.
  const reachable = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const host = reachable.includes(':') ? `[${reachable}]` : reachable;
  const url = `http://${host}:${port}`;
  const publicUrl = config.publicUrl ?? url;
  try {
    // The port actually listened on (config.port may be 0): the shop answers to loopback names on it.
    shop = createShop({ ...config, publicUrl, port });
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    publicUrl,
    webhookUrl: shop.webhookUrl,
    orders: shop.orders,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
