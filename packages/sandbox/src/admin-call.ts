// One request to the admin area (/_sandbox/), as the core hands it on: to the admin API (admin.ts)
// and the hosted payment page (payment-page.ts), which admin.ts routes to.
import type { Incoming } from './http.js';
import type { SignInCodes } from './sign-in-codes.js';

/** One request to the admin area. */
export interface AdminCall {
  incoming: Incoming;
  method: string;
  /** The path after `/_sandbox`, e.g. `/clock/advance`. */
  path: string;
  query: string | null;
  /** The origin the request arrived on (a name of the sandbox: the Host was checked). */
  origin: string;
  base: string;
  /**
   * Whether the caller is taken for this machine's developer (else the admin token is needed):
   * never once the sandbox is reachable from elsewhere (Names.adminTokenFromEveryone). A function,
   * asked only for a call that brings no valid token: on Linux it reads the kernel's socket tables,
   * whose size grows with every connection of the machine (TIME_WAIT included).
   */
  isDeveloper: () => boolean;
  /** The token that opens the admin area to anyone else. */
  adminToken: string;
  /** The codes of the sign-in links given out (sign-in.ts). */
  signInCodes: SignInCodes;
}
