// The frame of every page of the admin area (the dashboard, the request log, a timeline): the
// header with its navigation and tools, the filters, the main part; and the admin area's own 404.
import { escapeHtml, foreign } from './html-kit.js';
import { maskedCut } from './masking.js';
import { PAGE_SCRIPT_PATH } from './page-script.js';
import { ADMIN_STYLE } from './page-style.js';
import type { State } from './state.js';

/** A page of the admin area: the header (title, navigation, tools), the filters and the main part. */
export function adminPage(parts: {
  title: string;
  /** The page of the navigation this is, if any. */
  current: 'transactions' | 'requests' | null;
  tools: string;
  filters: string;
  version: number;
  main: string;
}): string {
  const link = (href: string, label: string, key: 'transactions' | 'requests') =>
    `<a href="${href}"${parts.current === key ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title><link rel="icon" href="data:,"><style>${ADMIN_STYLE}</style>
<script type="module" src="/_sandbox${PAGE_SCRIPT_PATH}"></script></head>
<body>
<header class="bar">
  <h1>Payments sandbox</h1>
  <nav>${link('/_sandbox/', 'Transactions', 'transactions')} ${link('/_sandbox/log', 'Requests', 'requests')}</nav>
  ${parts.tools}
</header>
${parts.filters}
<main id="main" data-version="${parts.version}">${parts.main}</main>
</body></html>`;
}

/** The page for an address under /_sandbox/ that is none of the sandbox's: what there is instead. */
export function notFoundPage(state: State, path: string): string {
  return adminPage({
    title: 'Not found · Payments sandbox',
    current: null,
    tools: '',
    filters: '',
    version: state.version,
    main: `<div class="empty" id="not-found"><p>The sandbox has no page <code class="text">${foreign(maskedCut(path, 200))}</code>.</p>
<p>Its pages: <a href="/_sandbox/">the transactions</a> (each with its hosted page and timeline) and <a href="/_sandbox/log">the requests</a>. Its admin API answers JSON under <code>/_sandbox/</code>: see the package's README.</p></div>`,
  });
}
