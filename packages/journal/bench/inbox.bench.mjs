// Webhooks through the journal's inbox into a handler that writes one row, side by side with the
// hand-written baseline a careful merchant would write on the same PostgreSQL: verify the
// signature with @pay/sign, then in one transaction `INSERT ... ON CONFLICT DO NOTHING` into a
// deliveries table and the handler's row. Both verify a freshly signed body of a known
// transaction with a status it has not had, so every call records and handles one event. The
// journal also keeps the status order and the transaction's current status; the baseline does not.
//
// Both make four round trips to the database per webhook (BEGIN, record, the handler's row,
// COMMIT), so on loopback the ratio is the journal's extra work on the server: one UPDATE of the
// transaction's row (lock, duplicate check, status order) beside the event's INSERT, against the
// baseline's one INSERT. Two floors stand between them: the baseline keeping a current status, and
// that floor also keeping the session (its parameters read at BEGIN and set back before COMMIT, as
// the journal does so that a handler cannot leave a pooled connection changed); the journal is
// held against both (target 0.9, issue #40). A second run goes through a proxy that delays every packet by 1 ms each
// way, as a database on another machine does: there the round trips are the cost, and the ratio
// is what a merchant's webhook latency sees.
import { createServer, connect } from 'node:net';
import { createHmac } from 'node:crypto';
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { verifyRequest } from '@pay/sign';
import { verifyWebhook } from '@pay/webhook';
import pg from 'pg';
import { compare } from '../../../tools/bench.mjs';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';

const merchantId = 'm_bench';
const secret = 'sk_test_bench';
const url = 'https://shop.example/webhooks/pay';
const TRANSACTIONS = 1000;

if (!postgresAvailable) {
  console.log('@pay/journal webhook inbox: SKIPPED, PostgreSQL is not installed (PG_BIN)');
  process.exit(0);
}
const server = await startPostgres();
const pool = new pg.Pool({ connectionString: server.url, max: 4 });
const proxy = await delayingProxy(server.port, 1);
const farPool = new pg.Pool({ connectionString: server.url.replace(`:${server.port}/`, `:${proxy.port}/`), max: 4 });
/** The handler of both journals: one row per event. */
const logRow = (event, query) => query('INSERT INTO bench.orders_log (id, status) VALUES ($1, $2)', [event.id, event.status]);
try {
  // The client is never called: every transaction is known to the journal.
  const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId, secret });
  const journal = await openJournal({
    client,
    database: pool,
    schema: 'bench',
    handler: logRow,
  });
  await pool.query(`CREATE TABLE bench.orders_log (id text, status text);
    INSERT INTO bench.pay_transactions (kind, id, reference_id, status)
      SELECT 'payin', 'pi_' || g, 'ref-' || g, 'new' FROM generate_series(1, ${TRANSACTIONS}) g;
    CREATE SCHEMA base;
    CREATE TABLE base.deliveries (id text, status text, PRIMARY KEY (id, status));
    CREATE TABLE base.orders_log (id text, status text);
    CREATE TABLE base.transactions (id text PRIMARY KEY, status text) WITH (fillfactor = 80);
    INSERT INTO base.transactions SELECT 'pi_' || g, 'new' FROM generate_series(1, ${TRANSACTIONS}) g;`);
  const inbox = journal.webhook().handler;

  let n = 0;
  /** A signed webhook of a known transaction with a status it has not had. */
  const next = () => {
    n++;
    const body = JSON.stringify({ id: `pi_${(n % TRANSACTIONS) + 1}`, reference_id: `ref-${(n % TRANSACTIONS) + 1}`, status: `s${n}` });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}${body}`).digest('hex');
    return { body, headers: { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature } };
  };

  // The floor that keeps the session sends the journal's own session statements (session-restore.ts):
  // the same parameters read in BEGIN's round trip and set back in COMMIT's, so the two differ only
  // in everything else.
  const { sessionBracket } = await import('../dist/session-restore.js');

  const RECORD = 'INSERT INTO base.deliveries (id, status) VALUES ($1, $2) ON CONFLICT DO NOTHING';
  const RECORD_WITH_STATUS = `WITH fresh AS (${RECORD} RETURNING 1)
    UPDATE base.transactions SET status = $2 WHERE id = $1 AND EXISTS (SELECT FROM fresh)`;
  /**
   * The baseline, or with `statusRow` the floor of keeping a current status: the same statement
   * also updates the transaction's row (its lock, so two events of one transaction are judged one
   * after the other), still four round trips. With `keepSession` too, the floor of a handler that
   * cannot leave its session changed for the next user of the connection: the session's parameters
   * read in BEGIN's round trip and set back in COMMIT's, with the journal's own statements.
   */
  const baseline =
    (db, statusRow = false, keepSession = false) =>
    async () => {
      const { body, headers } = next();
      if (!verifyRequest({ merchantId, secret, method: 'POST', url, headers, body }).ok) throw new Error('refused');
      const event = JSON.parse(body);
      const c = await db.connect();
      try {
        const session = keepSession ? sessionBracket() : undefined;
        const begun = await c.query(session ? `BEGIN; ${session.atBegin}` : 'BEGIN');
        session?.begun(begun.at(-1).rows);
        await session?.use(() => Promise.reject(new Error('read at BEGIN')));
        const fresh = await c.query(statusRow ? RECORD_WITH_STATUS : RECORD, [event.id, event.status]);
        if (fresh.rowCount === 1) await c.query('INSERT INTO base.orders_log (id, status) VALUES ($1, $2)', [event.id, event.status]);
        await c.query(session ? `${session.beforeCommit()}; COMMIT` : 'COMMIT');
      } catch (error) {
        await c.query('ROLLBACK');
        throw error;
      } finally {
        c.release();
      }
    };
  const throughJournal = (handler) => async () => {
    const { body, headers } = next();
    const verified = verifyWebhook({ merchantId, secret, url, headers, body });
    if (!verified.ok) throw new Error('refused');
    await handler(verified.event);
  };

  // Both must record and handle what they are given, or the comparison means nothing.
  await baseline(pool)();
  await throughJournal(inbox)();
  const handled = await pool.query('SELECT (SELECT count(*) FROM bench.orders_log) AS j, (SELECT count(*) FROM base.orders_log) AS b');
  if (Number(handled.rows[0].j) !== 1 || Number(handled.rows[0].b) !== 1) throw new Error('a contender did not handle its webhook');

  console.log(`@pay/journal webhook inbox on PostgreSQL through pg (node ${process.version})`);
  const ratios = await compare(
    'a webhook recorded and handled (one row) in one transaction',
    ['baseline: @pay/sign + INSERT ... ON CONFLICT DO NOTHING + the row', baseline(pool)],
    {
      'floor: the baseline + an UPDATE of the status row': baseline(pool, true),
      'floor with the session kept: the floor + read and set back the session': baseline(pool, true, true),
      'journal.webhook(): verifyWebhook + the inbox': throughJournal(inbox),
    },
    { rounds: 7, time: 300 },
  );
  // The same database, 1 ms away: the journal's second instance opens the same schema.
  const far = await openJournal({ client, database: farPool, schema: 'bench', handler: logRow });
  await compare(
    'the same, with the database 1 ms away (a delaying proxy)',
    ['baseline: @pay/sign + INSERT ... ON CONFLICT DO NOTHING + the row', baseline(farPool)],
    { 'journal.webhook(): verifyWebhook + the inbox': throughJournal(far.webhook().handler) },
    { rounds: 5, time: 300 },
  );
  await far.close();
  await journal.close();
  process.exitCode = 0;
  // The target (#40): the journal at 0.9 of the floor. Against both floors, as ratios of
  // ratios measured in the same rounds' medians.
  const journalRatio = ratios['journal.webhook(): verifyWebhook + the inbox'];
  for (const floor of [
    'floor: the baseline + an UPDATE of the status row',
    'floor with the session kept: the floor + read and set back the session',
  ]) {
    console.log(`  the journal against "${floor}": ${(journalRatio / ratios[floor]).toFixed(2)}x`);
  }
} finally {
  await farPool.end();
  proxy.close();
  await pool.end();
  await server.stop();
}

/** A TCP proxy to `port` that holds every chunk `ms` in each direction (in order), like a network. */
function delayingProxy(port, ms) {
  const proxy = createServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    const pipe = (from, to) => {
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), ms));
      from.on('end', () => setTimeout(() => to.end(), ms));
      from.on('error', () => to.destroy());
    };
    pipe(inbound, outbound);
    pipe(outbound, inbound);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve({ port: proxy.address().port, close: () => proxy.close() })));
}
