// The requests page (`GET /_sandbox/log`): the request log, newest first, each request with its
// answer, the refusal's code and sentence, and the hint that names the likely mistake, so a
// developer whose call failed sees why at a glance. Filterable from the query string.
import { serviceMs } from './format.js';
import { adminPage } from './admin-layout.js';
import {
  arrivalClock,
  type ClockName,
  clockLabel,
  escapeHtml,
  foreign,
  identHtml,
  pathHtml,
  SCHEDULE_CLOCK,
  timeHtml,
} from './html-kit.js';
import { countLine, filterForm, readFilters, textField } from './page-filters.js';
import { LOGGED_BODY_CHARS, type LoggedRequest } from './request-log.js';
import type { Transaction } from './records.js';
import type { State } from './state.js';
import { requestAbout } from './timeline.js';

/** How many requests the page shows (the newest that match its filters). */
const REQUEST_ROWS = 200;

type RequestFilter = Record<'merchant' | 'status' | 'path' | 'transaction', string>;

/**
 * Whether an answer's status passes a status filter: '' (any), a class such as `4xx`, an exact
 * code such as `401`, or `dropped` (no answer, a fault). Anything else matches nothing.
 */
export function statusMatches(status: number | null, wanted: string): boolean {
  const w = wanted.toLowerCase();
  if (w === '') return true;
  if (w === 'dropped') return status === null;
  if (/^[1-5]xx$/.test(w)) return status !== null && Math.floor(status / 100) === Number(w[0]);
  return /^[0-9]{3}$/.test(w) && status === Number(w);
}

function matchesFilter(r: LoggedRequest, filter: RequestFilter, about: Transaction | undefined): boolean {
  if (filter.transaction !== '') {
    // The requests on the transaction's timeline; of a transaction no longer kept, those that name it.
    if (about === undefined ? r.transaction_id !== filter.transaction : requestAbout(r, about) === undefined) return false;
  }
  if (filter.merchant !== '' && r.merchant_id !== filter.merchant) return false;
  if (!statusMatches(r.status, filter.status)) return false;
  return filter.path === '' || r.path.toLowerCase().includes(filter.path.toLowerCase());
}

/** A request's answer: its status (or `dropped`) and the refusal's code. */
export function requestAnswerHtml(r: Pick<LoggedRequest, 'status' | 'code'>): string {
  const status =
    r.status === null ? '<span class="bad">dropped</span>' : `<span class="${r.status < 400 ? 'ok' : 'bad'}">${r.status}</span>`;
  return `${status}${r.code === null ? '' : ` <code>${escapeHtml(r.code)}</code>`}`;
}

/** What the sandbox said about a request (the hint stands out: it names the likely mistake), and the body it got. */
export function detailsHtml(r: Pick<LoggedRequest, 'message' | 'hint' | 'errors' | 'fault' | 'body' | 'seq'>): string {
  const parts: string[] = [];
  if (r.message !== null) parts.push(`<p class="message">${foreign(r.message)}</p>`);
  if (r.errors.length > 0) parts.push(fieldErrorsHtml(r.errors));
  if (r.hint !== null) parts.push(`<p class="hint"><strong>Hint:</strong> ${foreign(r.hint)}</p>`);
  if (r.fault !== null) parts.push(`<p class="message">fault <code>${escapeHtml(r.fault)}</code></p>`);
  if (r.body !== null) {
    const length = [...r.body].length;
    const cut = length >= LOGGED_BODY_CHARS ? `, cut at ${LOGGED_BODY_CHARS}` : '';
    parts.push(
      `<details id="body-${r.seq}"><summary>body, ${length} characters${cut}</summary><pre class="text">${foreign(r.body)}</pre></details>`,
    );
  }
  return parts.join('');
}

/** A refusal's field errors: each path (`(body)` for the body itself) with what is wrong there. */
function fieldErrorsHtml(errors: LoggedRequest['errors']): string {
  const items = errors.map(
    (e) => `<li data-path="${escapeHtml(e.path)}">${e.path === '' ? '' : `<code>${foreign(e.path)}</code> `}${foreign(e.message)}</li>`,
  );
  return `<ul class="field-errors">${items.join('')}</ul>`;
}

/**
 * When a request arrived, on both clocks the pages show: the schedule clock, as the dashboard and
 * the timeline show times (an advance moves it ahead), and the clock it arrived by (the wall clock).
 */
function receivedHtml(r: LoggedRequest, arrival: ClockName): string {
  const scheduled = timeHtml(serviceMs(r.clock_at), SCHEDULE_CLOCK);
  const arrived = timeHtml(Date.parse(r.at), arrival) || escapeHtml(r.at);
  return `${scheduled ? `${scheduled} ${clockLabel(SCHEDULE_CLOCK)}<br>` : ''}${arrived} ${clockLabel(arrival)}`;
}

function requestRows(r: LoggedRequest, arrival: ClockName): string {
  const tx =
    r.transaction_id === null
      ? ''
      : `<a href="/_sandbox/#tx-${encodeURIComponent(r.transaction_id)}" data-link="transaction"><code class="ident">${escapeHtml(r.transaction_id)}</code></a>` +
        ` <a href="/_sandbox/timeline/${encodeURIComponent(r.transaction_id)}" data-link="timeline">timeline</a>`;
  const details = detailsHtml(r);
  return `<tr class="request" id="request-${r.seq}" data-seq="${r.seq}">
  <td class="pair nowrap" data-label="received">${receivedHtml(r, arrival)}</td>
  <td class="text pair" data-label="merchant">${r.merchant_id === null ? '<span class="due">none</span>' : identHtml(r.merchant_id)}</td>
  <td class="pair" data-label="method"><strong>${escapeHtml(r.method)}</strong></td>
  <td class="text path" data-label="path"><code>${pathHtml(r.path)}</code></td>
  <td class="answer pair" data-label="answer">${requestAnswerHtml(r)}</td>
  <td class="num pair" data-label="duration">${escapeHtml(r.duration_ms)} ms</td>
  <td class="pair" data-label="transaction">${tx}</td>
</tr>${details === '' ? '' : `\n<tr class="details" data-details="${r.seq}"><td colspan="7">${details}</td></tr>`}`;
}

function requestFilters(state: State, filter: RequestFilter): string {
  return filterForm(
    '/_sandbox/log',
    textField('merchant', 'merchant', filter.merchant, [...state.merchants.keys()]) +
      textField('status', 'status (4xx, 401...)', filter.status, ['2xx', '4xx', '5xx', '400', '401', '404', '409', 'dropped']) +
      textField('path', 'path contains', filter.path) +
      textField('transaction', 'transaction', filter.transaction),
  );
}

/**
 * The requests page: the newest logged requests matching the filters of the query string
 * (`merchant`, exact; `status`, see statusMatches; `path`, any part of it, any case;
 * `transaction`, an id: the requests on its timeline).
 */
export function requestsPage(state: State, query: string | null = null): string {
  const filter = readFilters(query, ['merchant', 'status', 'path', 'transaction']);
  const all = state.requests.list();
  const about = filter.transaction === '' ? undefined : state.transactions.get(filter.transaction);
  const matching = all.filter((r) => matchesFilter(r, filter, about));
  const shown = matching.slice(0, REQUEST_ROWS);
  const arrival = arrivalClock(state);
  const table =
    all.length === 0
      ? '<p class="empty">No requests yet. Every request to a service endpoint appears here, accepted or refused, with why.</p>'
      : shown.length === 0
        ? '<p class="empty">No request matches these filters.</p>'
        : `<div class="scroll panel"><table class="list"><thead><tr><th>received</th><th>merchant</th><th>method</th><th>path</th><th>answer</th><th class="num">duration</th><th>transaction</th></tr></thead>
<tbody>${shown.map((r) => requestRows(r, arrival)).join('\n')}</tbody></table></div>`;
  return adminPage({
    title: 'Requests · Payments sandbox',
    current: 'requests',
    tools: '',
    filters: requestFilters(state, filter),
    version: state.version,
    main: `${countLine(matching.length, all.length, shown.length, 'requests')}${table}`,
  });
}
