// The pages' style sheets: the admin area's (dashboard, requests, timeline), and the card of the
// hosted payment page and the sign-in page. Inline in each page (its Content-Security-Policy allows
// inline style, no inline script). Both are written for a wide screen first and a phone (390 px)
// second: on a phone nothing scrolls the page sideways, on a wide screen no id breaks mid-word.

export const ADMIN_STYLE = `
  :root { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; }
  a { color: #1a56c4; }
  input, select, button { font: inherit; }
  code { font-size: 12px; }
  time, .amount, .nowrap { white-space: nowrap; }
  /* Text a merchant or a request wrote may hold a word longer than any screen: it breaks anywhere
     rather than widen the page. */
  .text { overflow-wrap: anywhere; }
  /* Ids, references and e-mail addresses are read and copied whole: on a wide screen never broken
     across lines (a table squeezing a column once broke them mid-word: "pi_jakwcqfz1rdabg1j qem9"),
     and one longer than its box (a 64-character reference) scrolls sideways inside it. */
  .ident { display: inline-block; max-width: min(100%, 30rem); white-space: nowrap; overflow-x: auto; overflow-y: hidden; vertical-align: bottom; }
  /* A path breaks after its slashes first (<wbr>): wide enough for a path and an id on one line. */
  td.path { min-width: 16rem; }
  .clock-name { font-weight: 400; font-size: 11px; color: #5b6372; }
  .bar { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .75rem 1.25rem; background: #1d2330; color: #fff; }
  .bar h1 { font-size: 1.1rem; margin: 0; }
  .bar a { color: #cfe0ff; }
  .bar nav { display: flex; gap: .75rem; }
  .bar nav a[aria-current] { color: #fff; font-weight: 600; text-decoration: none; border-bottom: 2px solid #fff; }
  .bar .group { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; }
  #seconds { width: 5rem; }
  #notice { min-height: 1.2em; color: #ffb4ab; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: end; padding: .6rem 1.25rem; background: #e9ecf1; border-bottom: 1px solid #d5d9e0; }
  .filters label { display: flex; flex-direction: column; gap: .15rem; font-size: 12px; color: #3d4452; }
  .filters input { width: 12rem; max-width: 100%; }
  main { padding: 1rem 1.25rem; }
  .count { margin: 0 0 .5rem; color: #3d4452; }
  .scroll { overflow-x: auto; }
  .panel { background: #fff; border: 1px solid #e3e6ea; border-radius: .4rem; }
  table { border-collapse: collapse; width: 100%; }
  table.list { min-width: 56rem; }
  table.list td.reference { min-width: 9rem; }
  table.attempts { min-width: 48rem; }
  table.attempts td.answer { white-space: nowrap; }
  table.attempts td:last-child { min-width: 14rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
  th { font-weight: 600; background: #eef0f3; white-space: nowrap; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tr:target > td { background: #fff6d6; }
  tr.deliveries > td { background: #fafbfc; padding-left: 2rem; }
  tr.deliveries table { font-size: 12px; }
  details.attempts > summary { padding: .15rem 0; }
  details.attempts > summary button { margin-left: .5rem; font-size: 12px; }
  details.attempts > summary .bad, details.attempts > summary .ok { font-weight: 600; }
  .actions { display: flex; flex-wrap: wrap; gap: .25rem; }
  .actions button { white-space: nowrap; }
  .links { display: flex; flex-wrap: wrap; gap: .1rem .6rem; font-size: 12px; }
  .status { font-weight: 600; padding: .1rem .4rem; border-radius: .25rem; background: #e3e6ea; white-space: nowrap; }
  .status-new { background: #dde8ff; } .status-executed { background: #d6f5dd; }
  .status-failed { background: #ffdcdc; } .status-expired { background: #eee; color: #666; }
  .ok { color: #137333; } .bad { color: #b3261e; } .due { color: #666; }
  tr.details > td { background: #fafbfc; padding-left: 2rem; }
  .hint { margin: .2rem 0; padding: .35rem .6rem; background: #fff4c2; border-left: 4px solid #e0a800; overflow-wrap: anywhere; }
  .message { margin: .2rem 0; color: #3d4452; overflow-wrap: anywhere; }
  .field-errors { margin: .2rem 0; padding-left: 1.25rem; color: #3d4452; overflow-wrap: anywhere; }
  .field-errors code { color: #b3261e; }
  details summary { cursor: pointer; color: #1a56c4; font-size: 12px; }
  pre { margin: .3rem 0; padding: .5rem; background: #f0f2f5; white-space: pre-wrap; font-size: 12px; max-height: 20rem; overflow: auto; }
  .empty { padding: 2rem; text-align: center; color: #666; background: #fff; }
  /* A transaction's page: its facts, then its timeline, a vertical line with one dot per entry. */
  .summary { padding: .75rem 1rem; margin: 0 0 1rem; }
  .summary h2 { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; font-size: 1.05rem; margin: 0 0 .5rem; }
  .facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: .35rem 1rem; margin: 0 0 .5rem; }
  .facts dt { font-size: 11px; color: #5b6372; }
  .facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
  .facts .wide { grid-column: span 2; }
  .summary .links { margin: 0 0 .5rem; }
  h2.heading { font-size: 1rem; margin: 0 0 .5rem; }
  h2.heading small { font-weight: 400; color: #5b6372; }
  ol.timeline { list-style: none; margin: 0 0 0 .5rem; padding: 0 0 0 1.5rem; border-left: 2px solid #c9ced6; }
  ol.timeline > li { position: relative; margin: 0 0 .6rem; padding: .4rem .75rem; background: #fff; border: 1px solid #e3e6ea; border-radius: .4rem; min-width: 0; }
  ol.timeline > li::before { content: ''; position: absolute; left: calc(-1.5rem - 7px); top: .75rem; width: 12px; height: 12px; border-radius: 50%; border: 2px solid #f6f7f9; background: #8a93a3; }
  ol.timeline > li.event-request::before { background: #1a56c4; }
  ol.timeline > li.event-status::before { background: #137333; }
  ol.timeline > li.event-resend::before { background: #e0a800; }
  ol.timeline > li.event-webhook::before { background: #6b4fbb; }
  ol.timeline > li.webhook-failed::before { background: #b3261e; }
  ol.timeline > li.webhook-due::before { background: #fff; border-color: #6b4fbb; }
  .event .when { font-size: 12px; color: #3d4452; }
  .event .what, .event .result { overflow-wrap: anywhere; }
  .event .result { font-size: 13px; }
  .note { color: #5b6372; font-size: 12px; overflow-wrap: anywhere; }
  /* On a phone, each row of a list is a card: its cells stacked, each under its label, and so is
     each webhook attempt; only a body scrolls sideways, inside its own box. */
  @media (max-width: 48rem) {
    .bar, .filters, main { padding-left: .75rem; padding-right: .75rem; }
    /* A phone is narrower than many an id: there they wrap anywhere rather than widen the page. */
    .ident { display: inline; max-width: none; white-space: normal; overflow: visible; overflow-wrap: anywhere; }
    td.path { min-width: 0; }
    .facts .wide { grid-column: auto; }
    table.list, table.list > tbody { display: block; min-width: 0; }
    table.list > thead { display: none; }
    table.list > tbody > tr { display: flex; flex-wrap: wrap; gap: .35rem 1rem; padding: .6rem .75rem; border-bottom: 1px solid #e3e6ea; }
    table.list > tbody > tr > td { display: block; flex: 1 1 100%; min-width: 0; padding: 0; border: 0; text-align: left; }
    table.list > tbody > tr > td.pair { flex: 1 0 auto; max-width: 100%; }
    table.list > tbody > tr > td[data-label]:empty { display: none; }
    table.list > tbody > tr > td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #5b6372; }
    table.list > tbody > tr.deliveries, table.list > tbody > tr.details { padding-top: 0; }
    table.attempts, table.attempts > tbody { display: block; min-width: 0; }
    table.attempts > thead { display: none; }
    table.attempts > tbody > tr { display: flex; flex-wrap: wrap; gap: .15rem 1rem; padding: .35rem 0; border-bottom: 1px solid #e3e6ea; }
    table.attempts > tbody > tr > td { display: block; min-width: 0; padding: 0; border: 0; text-align: left; }
    table.attempts > tbody > tr > td:last-child { flex: 1 1 100%; min-width: 0; }
    table.attempts > tbody > tr > td[data-label]:empty { display: none; }
    table.attempts > tbody > tr > td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #5b6372; }
  }
`;

export const CARD_STYLE = `
  :root { font: 16px/1.5 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; padding: 2rem 1rem; }
  .card { max-width: 28rem; margin: 0 auto; background: #fff; padding: 1.5rem; border-radius: .6rem; box-shadow: 0 1px 3px rgba(0, 0, 0, .12); }
  .brand { margin: 0 0 .25rem; font-size: .8rem; color: #5b6372; text-transform: uppercase; letter-spacing: .05em; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  h1 .id { display: block; font: 500 .85rem/1.3 ui-monospace, monospace; color: #5b6372; overflow-wrap: anywhere; }
  .total { font-size: 2rem; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0 0 1.25rem; }
  dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
  .choices { display: flex; flex-wrap: wrap; gap: .5rem; }
  .choices form { flex: 1 1 8rem; margin: 0; }
  .choices button { width: 100%; font: inherit; padding: .6rem 1rem; border-radius: .4rem; border: 1px solid #1d2330; background: #fff; cursor: pointer; }
  .choices #pay { background: #1d2330; color: #fff; }
  .status { font-weight: 600; padding: .1rem .4rem; border-radius: .25rem; background: #e3e6ea; }
  .status-new { background: #dde8ff; } .status-executed { background: #d6f5dd; }
  .status-failed { background: #ffdcdc; } .status-expired { background: #eee; color: #666; }
  .note { margin: 1.25rem 0 0; font-size: .8rem; color: #5b6372; }
  .when { font-size: .85rem; color: #5b6372; overflow-wrap: anywhere; }
  .back { display: inline-block; padding: .5rem 1rem; border-radius: .4rem; background: #1d2330; color: #fff; text-decoration: none; }
  #reason { overflow-wrap: anywhere; }
  @media (max-width: 30rem) {
    body { padding: 0; } .card { border-radius: 0; box-shadow: none; min-height: 100vh; } .total { font-size: 1.6rem; }
  }
`;
