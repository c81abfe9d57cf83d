// The one-time codes of the sign-in links (sign-in.ts): minted when a link is printed, used up
// when its page posts one. Its own file: the admin call carries them (admin-call.ts), and the
// sign-in page reads the admin call, so neither imports the other for them.
import { newAdminToken, sameToken } from './admin-access.js';

/** Unused sign-in codes kept at most; past it, the oldest is forgotten. */
const MAX_CODES = 16;

/** The one-time codes of the sign-in links given out and not used yet. */
export class SignInCodes {
  readonly #codes: string[] = [];

  /** A new code: 128 random bits, hex. */
  mint(): string {
    const code = newAdminToken();
    this.#codes.push(code);
    if (this.#codes.length > MAX_CODES) this.#codes.shift();
    return code;
  }

  /** Whether `given` is an unused code; if it is, it is used up. Compared in constant time. */
  take(given: string | undefined): boolean {
    let found = -1;
    for (let i = 0; i < this.#codes.length; i++) if (sameToken(given, this.#codes[i]!)) found = i;
    if (found < 0) return false;
    this.#codes.splice(found, 1);
    return true;
  }
}
