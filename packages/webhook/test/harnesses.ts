// Every adapter in its real framework, listening on loopback: Node http, Express, Fastify and
// Hono (the Fetch adapter on @hono/node-server). Shared by the adapter and hostile-input tests.
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as onExpress from '../src/express/index.js';
import * as onFastify from '../src/fastify/index.js';
import * as onFetch from '../src/fetch/index.js';
import type { WebhookHandlerOptions } from '../src/index.js';
import * as onNode from '../src/node/index.js';

/** A running framework server with a webhook handler mounted at each path of `mounts`. */
export interface Harness {
  name: string;
  start(mounts: Map<string, WebhookHandlerOptions>): Promise<{ base: string; close(): Promise<void> }>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const closer = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export const harnesses: Harness[] = [
  {
    name: 'node http',
    async start(mounts) {
      const handlers = new Map([...mounts].map(([path, o]) => [path, onNode.webhookHandler(o)]));
      const server = createServer((req, res) => {
        const handler = handlers.get((req.url ?? '').split('?')[0]!);
        if (handler) void handler(req, res);
        else res.writeHead(404).end();
      });
      return { base: await listen(server), close: closer(server) };
    },
  },
  {
    name: 'express',
    async start(mounts) {
      const app = express();
      for (const [path, o] of mounts) {
        if (path.startsWith('/after-json/')) continue;
        // Behind express.raw(), which inflates a gzip body unless told not to: the middleware must still refuse it.
        if (path.startsWith('/express-raw/')) app.post(path, express.raw({ type: '*/*', limit: '8mb' }), onExpress.webhookHandler(o));
        else app.post(path, onExpress.webhookHandler(o));
      }
      app.use(express.json());
      for (const [path, o] of mounts) if (path.startsWith('/after-json/')) app.post(path, onExpress.webhookHandler(o));
      const server = createServer(app);
      return { base: await listen(server), close: closer(server) };
    },
  },
  {
    name: 'fastify',
    async start(mounts) {
      const app = Fastify();
      for (const [path, o] of mounts) await app.register(onFastify.webhookHandler({ ...o, path }));
      app.post('/other-json-route', async (request) => ({ echoed: request.body })); // keeps its JSON parser
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      return { base, close: () => app.close() };
    },
  },
  {
    name: 'hono',
    async start(mounts) {
      const app = new Hono();
      for (const [path, o] of mounts) {
        const onWebhook = onFetch.webhookHandler(o);
        app.post(path, (c) => onWebhook(c.req.raw));
      }
      const server = await new Promise<Server>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
      });
      return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: closer(server) };
    },
  },
];
