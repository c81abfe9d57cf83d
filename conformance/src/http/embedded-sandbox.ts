// A @pay/sandbox on loopback, for the default run of server mode: the service stand-in the
// toolkit ships, with a merchant made up for the run. The runner only starts it; it judges the
// sandbox's answers with its own code, as it would any service's.
import { randomBytes } from 'node:crypto';
import { startSandbox } from '@pay/sandbox';
import type { ServerOptions } from './server/run.js';

/** A running sandbox: where to call it, the merchant made up for the run, and how to stop it. */
export interface EmbeddedSandbox extends Pick<ServerOptions, 'baseUrl' | 'cardProxyUrl' | 'merchantId' | 'secret'> {
  close(): Promise<void>;
}

/** Starts a sandbox on a random loopback port with one merchant and a random secret. */
export async function startEmbeddedSandbox(): Promise<EmbeddedSandbox> {
  const merchantId = 'm_conformance';
  const secret = `sk_test_${randomBytes(16).toString('hex')}`;
  const sandbox = await startSandbox({ merchants: [{ id: merchantId, secret }], port: 0 });
  return { baseUrl: sandbox.url, cardProxyUrl: sandbox.cardProxyUrl, merchantId, secret, close: () => sandbox.close() };
}
