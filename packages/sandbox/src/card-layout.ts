// The small card layout, for the pages a browser sees outside the admin area's frame: the hosted
// payment page (payment-page-html.ts), a page with a message, and the admin sign-in page.
import { escapeHtml } from './html-kit.js';
import { CARD_STYLE } from './page-style.js';
import { SIGN_IN_SCRIPT_PATH } from './sign-in-script.js';

/** A page with a message. */
export function resultPage(title: string, message: string): string {
  return cardPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/**
 * The admin sign-in page, for a browser the sandbox does not take for its developer's (another
 * machine, a tunnel, or any browser once the sandbox is reachable from elsewhere): one field for
 * the admin token, posted to itself; and the form its script posts a sign-in link's code with
 * (sign-in.ts). The answer sets a cookie.
 */
export function signInPage(problem?: string): string {
  return cardPage(
    'Admin token',
    `<h1>Admin token</h1><p>This sandbox's dashboard needs its admin token here. Open the sign-in link that <code>pay-sandbox</code> printed when it started, or type the admin token it printed.</p>` +
      (problem === undefined ? '' : `<p class="problem">${escapeHtml(problem)}</p>`) +
      `<form method="post" action="sign-in"><label>Token <input name="token" type="password" autocomplete="off" required></label> <button type="submit">Open the dashboard</button></form>` +
      `<form id="link" method="post" action="sign-in" hidden><input type="hidden" name="code"></form>` +
      `<script type="module" src="/_sandbox${SIGN_IN_SCRIPT_PATH}"></script>`,
  );
}

/** A page in the small card layout: the brand, the content, and the note that no money moves. */
export function cardPage(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><style>${CARD_STYLE}</style></head>
<body><main class="card"><p class="brand">Payments sandbox</p>${content}<p class="note">A sandbox: no real money moves.</p></main></body></html>`;
}
