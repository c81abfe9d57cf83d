// How a browser gets into the admin area when it is not taken for the developer's (another
// machine, a tunnel, or any caller once the sandbox is reachable from elsewhere): the sign-in page
// `/_sandbox/sign-in`, which takes the admin token typed into its form, or a one-time code from
// the sign-in link the terminal prints, and answers with the admin cookie.
//
// Why the link carries a one-time code in its fragment (`/_sandbox/sign-in#code=...`), which the
// page posts: a fragment is never sent in a request, so the code reaches no access log, no
// proxy's or tunnel's log and no Referer; the page's script takes it out of the address
// (history.replaceState) before posting it, so the history entry keeps none; and a code opens the
// dashboard once, so one found later in a terminal's scrollback or a browser's history database
// opens nothing. The admin token itself never appears in a URL. (A code in the query would be
// written to every log on the way; the token in the fragment would stay good wherever a history
// kept it.)
import { ADMIN_COOKIE, sameToken } from './admin-access.js';
import type { AdminCall } from './admin-call.js';
import { checkBaseUrl } from './base-url.js';
import { fail, html, MAX_BODY_BYTES, methodNotAllowed, redirect, reply, view, type Reply } from './http.js';
import { readHeader } from '@pay/sign';
import { signInPage } from './card-layout.js';
import type { SignInCodes } from './sign-in-codes.js';
import { SIGN_IN_SCRIPT } from './sign-in-script.js';

/** The sign-in page, under `/_sandbox`. */
export const SIGN_IN_PATH = '/sign-in';
/**
 * A new one-time sign-in link on `base` (the address the developer's browser uses).
 *
 * @throws TypeError when `base` is not a base URL (the message never repeats it).
 */
export function signInLink(codes: SignInCodes, base: string): string {
  return `${checkBaseUrl(base, 'base')}/_sandbox${SIGN_IN_PATH}#code=${codes.mint()}`;
}

/**
 * `/_sandbox/sign-in`: the page (GET), and its form (POST) with the admin token or a sign-in
 * link's code. Either sets the admin cookie (HttpOnly, SameSite=Strict, for /_sandbox only) and
 * sends the browser on to the dashboard.
 */
export async function signIn(call: AdminCall, codes: SignInCodes): Promise<Reply> {
  if (call.method === 'GET') return view(html(200, signInPage()));
  if (call.method !== 'POST') return methodNotAllowed(call.method, ['GET', 'POST']);
  if (!/^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i.test(readHeader(call.incoming.headers, 'content-type') ?? '')) {
    return html(415, signInPage('The sign-in page takes its own form only.'));
  }
  const bytes = await call.incoming.read();
  if (bytes === undefined) return fail(413, 'payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  const form = new URLSearchParams(new TextDecoder().decode(bytes));
  const code = form.get('code');
  if (code !== null) {
    if (!codes.take(code)) {
      return html(
        403,
        signInPage(
          'This sign-in link was used already (each opens the dashboard once), or is not from this sandbox: type the admin token instead.',
        ),
      );
    }
  } else if (!sameToken(form.get('token') ?? undefined, call.adminToken)) {
    return html(403, signInPage('That is not the admin token.'));
  }
  // Secure when the browser's page is on https: a browser names its page's origin on every POST
  // (checked against the sandbox's own origins before this), and that is the scheme it sees, even
  // behind a proxy that ends TLS or when publicUrl is https and the developer is on 127.0.0.1.
  const pageOrigin = readHeader(call.incoming.headers, 'origin') ?? call.base;
  const secure = pageOrigin.startsWith('https:') ? '; Secure' : '';
  // A relative address: the dashboard on the origin the browser is on, which the sandbox cannot
  // know behind a proxy that rewrites Host, and which is not publicUrl's for the developer's own
  // browser on 127.0.0.1 (its cookie would not go there).
  const answer = redirect(303, '/_sandbox/');
  answer.headers['set-cookie'] = `${ADMIN_COOKIE}=${call.adminToken}; Path=/_sandbox; HttpOnly; SameSite=Strict${secure}`;
  return answer;
}

/** `GET /_sandbox/assets/sign-in.js`. */
export function signInScript(): Reply {
  return view(reply(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }, SIGN_IN_SCRIPT));
}
