// The one script of the dashboard and the requests page, served as a file (PAGE_SCRIPT_PATH): the
// pages' Content-Security-Policy runs no inline script and no inline event handler. No build step:
// plain browser JavaScript, kept small.

/** Where the script is served, under `/_sandbox`. */
export const PAGE_SCRIPT_PATH = '/assets/dashboard.js';

/** The script's text. */
export const PAGE_SCRIPT = `// Payments sandbox pages: buttons call the admin API, list filters apply when chosen, and the page
// re-renders its main part (same URL, same filters) whenever the change feed announces a version
// newer than the one it shows.
const notice = document.getElementById('notice');

async function call(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  if (notice) {
    if (response.ok) notice.textContent = '';
    else {
      const error = await response.json().catch(() => ({}));
      notice.textContent = (error.error && error.error.message) || 'HTTP ' + response.status;
    }
  }
  refresh();
}

document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const d = button.dataset;
  if (d.action === 'status') call('/_sandbox/' + d.kind + '/' + d.id + '/status', { status: d.status });
  else if (d.action === 'resend') call('/_sandbox/' + d.kind + '/' + d.id + '/resend');
  else if (d.action === 'advance') call('/_sandbox/clock/advance', { seconds: Number(d.seconds || document.getElementById('seconds').value) });
  else if (d.action === 'reset') call('/_sandbox/reset');
});

// A choice in a filter list applies at once; typed filters apply with Enter or the button.
document.addEventListener('change', (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.form && field.form.classList.contains('filters')) field.form.requestSubmit();
});

const shown = () => Number(document.getElementById('main').dataset.version);
let latest = 0;
let pending = false;

async function refresh() {
  if (pending) return;
  pending = true;
  try {
    const response = await fetch(location.pathname + location.search, { cache: 'no-store' });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    // A body or a fold of webhook attempts the reader opened stays open across the refresh, and
    // one they closed stays closed.
    const open = [...document.querySelectorAll('main details[open][id]')].map((d) => d.id);
    const closed = [...document.querySelectorAll('main details[id]:not([open])')].map((d) => d.id);
    for (const id of ['main', 'clock', 'clock-ahead']) {
      const now = document.getElementById(id);
      const next = page.getElementById(id);
      if (now && next) now.replaceWith(next);
    }
    for (const id of open) document.getElementById(id)?.setAttribute('open', '');
    for (const id of closed) document.getElementById(id)?.removeAttribute('open');
  } catch {
    // The sandbox stopped or restarted: the change feed reconnects and asks again.
    return;
  } finally {
    pending = false;
  }
  if (shown() < latest) refresh();
}

// A link to a transaction's webhook attempts (#deliveries-<id>) unfolds them.
function openTarget() {
  const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  const fold = target && target.querySelector('details');
  if (fold) fold.open = true;
}
addEventListener('hashchange', openTarget);
openTarget();

new EventSource('/_sandbox/events').addEventListener('change', (event) => {
  latest = Math.max(latest, Number(event.data));
  if (shown() < latest) setTimeout(refresh, 50);
});
`;
