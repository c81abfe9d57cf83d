// What a host adapter (the Node adapter, or the core's own Fetch entry) hands the core for one
// request, in a file of its own: the core, its dispatcher and the Node adapter all name it.
import type { Incoming } from './http.js';
import type { PeerAccount } from './peer-account.js';

/** What a host adapter hands the core: the request as read, and what the host knows about it. */
export interface HostRequest extends Incoming {
  remoteAddress?: string;
  duplicateHeaders?: readonly string[];
  /** The local port the request arrived on (the Node adapter knows it; elsewhere the URL's). */
  localPort?: number;
  /**
   * Whose process the loopback peer is (the Node adapter asks the kernel; see peer-account.ts).
   * Asked only for the admin area: another account of the machine is not the developer.
   */
  account?: () => PeerAccount;
}
