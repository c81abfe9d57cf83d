/// <reference types="node" />
// The Node adapter: one node:http server around the Fetch core. It gives the core what a Fetch
// `Request` cannot carry: the exact URL called (the `Host` header and the raw request target),
// the peer address, headers received twice, and a socket it can destroy for the drop faults.
// This file starts and stops it; reading and answering each request is node-requests.ts, the
// state file state-file.ts.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { sandboxAdmin, type SandboxAdmin } from './admin-client/client.js';
import { coreHandler, coreState, coreTracker, createCore } from './core.js';
import { CARD_PROXY_PREFIX } from './endpoints.js';
import type { Merchant } from './merchants.js';
import { isLoopbackHost } from '@pay/schema';
import { nodeServer } from './node-requests.js';
import { checkListenAddress, checkStateFile, type StartSandboxOptions } from './options.js';
import { portInUse } from './port-in-use.js';
import { applySeed } from './seed.js';
import { nodeSender } from './sender-node.js';
import { restoreSnapshot } from './snapshot.js';
import { fileRefused, loadState, Saver } from './state-file.js';

/** A running sandbox. */
export interface RunningSandbox {
  /** The service base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  /** The card proxy URL: `<url>/card-proxy`. */
  cardProxyUrl: string;
  /** The dashboard: `<url>/_sandbox/`. */
  dashboardUrl: string;
  /** The merchants it accepts (the demo merchant when none were given). */
  merchants: readonly Merchant[];
  /** The admin token: what a caller other than this machine's developer needs for the admin API and dashboard. */
  adminToken: string;
  /**
   * While the sandbox is reachable from elsewhere (a `publicUrl` that is not a loopback name,
   * `host` beyond loopback, `allowHttpHosts`, `localReceivers`), its admin area asks every caller
   * for the token, this machine's too: this link (`<url>/_sandbox/sign-in#code=...`) opens the
   * dashboard in the developer's browser, once (its code is used up; `pay-sandbox` prints it).
   * Undefined otherwise: the dashboard then opens on this machine without a token.
   */
  signInUrl: string | undefined;
  /** Its admin API, typed: `await sandbox.admin.advance(3600)`. */
  admin: SandboxAdmin;
  /** Stops listening, drops open connections, stops the clock and deliveries; writes the state file. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox on Node: one HTTP server serving the service, the card proxy, the admin API
 * and the dashboard.
 *
 * @throws TypeError for unusable options; rejects when the port cannot be listened on: with a
 * `SandboxPortInUseError` (code `EADDRINUSE`) when it is taken, which says whether a
 * sandbox answers there.
 * @example
 * ```ts
 * const sandbox = await startSandbox({ merchants: [{ id: 'm_1', secret: 'sk_1' }], port: 0 });
 * console.log(sandbox.url, sandbox.cardProxyUrl);
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host = '127.0.0.1', stateFile, seed, ...rest } = options;
  checkStateFile(stateFile);
  const saved = stateFile !== undefined && existsSync(stateFile) ? await loadState(stateFile).catch(fileRefused) : undefined;
  checkListenAddress(port, host);
  const sender = nodeSender();
  let sandbox: ReturnType<typeof createCore>;
  try {
    sandbox = createCore(rest, sender.send, !isLoopbackHost(host === '::1' ? '[::1]' : host));
  } catch (error) {
    sender.close();
    throw error;
  }
  const handle = coreHandler(sandbox);
  const track = coreTracker(sandbox);
  const server = nodeServer(handle, track);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    sandbox.close();
    sender.close();
    // Taken, most often by a sandbox started earlier: the error says whether one answers there.
    throw (error as { code?: unknown }).code === 'EADDRINUSE' ? await portInUse(port, host, error) : error;
  }
  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  const state = coreState(sandbox);
  state.ports.add(address.port);
  let saver: Saver | undefined;
  try {
    try {
      if (saved !== undefined) restoreSnapshot(state, saved);
      if (seed !== undefined) applySeed(state, seed, rest.publicUrl?.replace(/\/$/, '') ?? url);
    } catch (error) {
      fileRefused(error);
    }
    if (stateFile !== undefined) saver = new Saver(state, stateFile, rest.log);
  } catch (error) {
    sandbox.close();
    sender.close();
    server.close();
    throw error;
  }
  return {
    url,
    cardProxyUrl: `${url}${CARD_PROXY_PREFIX}`,
    dashboardUrl: `${url}/_sandbox/`,
    merchants: sandbox.merchants,
    adminToken: sandbox.adminToken,
    signInUrl: state.names.adminTokenFromEveryone ? sandbox.signInLink(url) : undefined,
    admin: sandboxAdmin(url, { adminToken: sandbox.adminToken }),
    close: async () => {
      await saver?.stop();
      await new Promise<void>((resolve) => {
        sandbox.close();
        sender.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
