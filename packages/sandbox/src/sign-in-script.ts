// The sign-in page's one script, served as a file (SIGN_IN_SCRIPT_PATH) under the pages'
// Content-Security-Policy, which runs no inline script. Open to anyone, as the sign-in page is;
// the dashboard's own script (page-script.ts) is the admin area's.

/** Where the script is served, under `/_sandbox`. */
export const SIGN_IN_SCRIPT_PATH = '/assets/sign-in.js';

/** The script's text: a sign-in link's code is taken out of the address, then posted. */
export const SIGN_IN_SCRIPT = `// Payments sandbox sign-in: a link's one-time code comes in the fragment, which no request
// carries; it is removed from the address (and so from this history entry) before it is posted.
// A link opened on this very page changes only the fragment: no new page, so hashchange.
function signInWithLink() {
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (!code) return;
  history.replaceState(null, '', location.pathname + location.search);
  const form = document.getElementById('link');
  form.elements.namedItem('code').value = code;
  form.submit();
}
signInWithLink();
addEventListener('hashchange', signInWithLink);
`;
