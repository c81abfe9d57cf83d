// Profiling aid: the create's SQL on PGlite, part by part, in interleaved rounds.
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { PGlite } from '@electric-sql/pglite';

const db = new PGlite();
await db.waitReady;
await db.exec('SET synchronous_commit = off');
const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', secret: 's' });
const j = await openJournal({ client, database: db, schema: 'p' });
await j.close?.();
await db.exec(`CREATE TABLE p.floor (reference_id text PRIMARY KEY, amount numeric, transaction_id text, status text)`);
const TERM = 'executed,failed,expired';
const intentUpd = `UPDATE p.pay_intents SET state = 'created', transaction_id = p_id, next_action = COALESCE(p_next_action, next_action),
      request = NULL, lease_owner = NULL, lease_until = NULL, decidable_at = NULL, last_error = NULL, updated_at = now()
    WHERE kind = p_kind AND reference_id = p_ref AND state IN ('in_flight', 'unknown') AND (p_owner IS NULL OR lease_owner = p_owner)
    RETURNING amount::text, currency, next_action INTO r_amount, r_currency, r_next_action;`;
const fn = (name, body) => `CREATE FUNCTION p.${name}(p_kind text, p_ref text, p_id text, p_next_action jsonb, p_status text, p_source text,
    p_amount numeric, p_currency text, p_owner text, p_terminal text,
    OUT r_outcome text, OUT r_previous text, OUT r_kind text,
    OUT r_taken boolean, OUT r_amount text, OUT r_currency text, OUT r_next_action jsonb) LANGUAGE plpgsql AS $fn$
BEGIN ${body} END $fn$;`;
await db.exec(fn('v_empty', `r_taken := true;`));
await db.exec(fn('v_intent', intentUpd));
await db.exec(fn('v_tx', intentUpd + `INSERT INTO p.pay_transactions (kind, id, reference_id, amount, currency, status, statuses)
      VALUES (p_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status]) ON CONFLICT (kind, id) DO NOTHING;`));
await db.exec(fn('v_txev', intentUpd + `INSERT INTO p.pay_transactions (kind, id, reference_id, amount, currency, status, statuses)
      VALUES (p_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status]) ON CONFLICT (kind, id) DO NOTHING;
      INSERT INTO p.pay_events (kind, transaction_id, status, reference_id, source, outcome, previous)
    VALUES (p_kind, p_id, p_status, p_ref, p_source, 'change', NULL);`));
await db.exec(fn('v_all', intentUpd + `INSERT INTO p.pay_transactions (kind, id, reference_id, amount, currency, status, statuses)
      VALUES (p_kind, p_id, p_ref, p_amount, p_currency, p_status, ARRAY[p_status]) ON CONFLICT (kind, id) DO NOTHING;
      INSERT INTO p.pay_events (kind, transaction_id, status, reference_id, source, outcome, previous)
    VALUES (p_kind, p_id, p_status, p_ref, p_source, 'change', NULL);
    INSERT INTO p.pay_checks (kind, id) VALUES (p_kind, p_id) ON CONFLICT DO NOTHING;`));
let n = 0;
const intent = (r) =>
  db.query(`INSERT INTO p.pay_intents AS i (kind, reference_id, amount, currency, body_digest, state, lease_owner, lease_until, attempts)
       VALUES ($1, $2, $3::numeric, $4, $5, 'in_flight', $6, now() + $7 * interval '1 millisecond', 1)
       ON CONFLICT (kind, reference_id) DO UPDATE SET state = 'in_flight' WHERE i.state = 'not_created' RETURNING i.attempts`,
    ['payin', r, '10.50', 'EUR', 'digestdigestdigest', 'owner1', 200000]);
const callFn = (name, r) => db.query(`SELECT r_outcome, r_previous, r_kind, r_taken, r_amount, r_currency, r_next_action
         FROM p.${name}($1, $2, $3, $4::jsonb, $5, $6, $7::numeric, $8, $9, $10)`,
      ['payin', r, `t${r}`, null, 'new', 'create', '10.50', 'EUR', null, TERM]);
const INTENT_SQL = `INSERT INTO p.pay_intents AS i (kind, reference_id, amount, currency, body_digest, state, lease_owner, lease_until, attempts)
       VALUES ($1, $2, $3::numeric, $4, $5, 'in_flight', $6, now() + $7 * interval '1 millisecond', 1)
       ON CONFLICT (kind, reference_id) DO UPDATE SET state = 'in_flight' WHERE i.state = 'not_created' RETURNING i.attempts`;
await db.exec(`PREPARE x_intent AS ${INTENT_SQL}`);
await db.exec(`PREPARE x_rc AS SELECT r_outcome, r_previous, r_kind, r_taken, r_amount, r_currency, r_next_action
         FROM p.pay_record_created($1, $2, $3, $4::jsonb, $5, $6, $7::numeric, $8, $9, $10)`);
const { queryPrepared } = await import('../dist/adapters/pglite-prepared.js');
const variants = {
  journal_prep: async () => {
    const r = `y${++n}`;
    await queryPrepared(db, INTENT_SQL, ['payin', r, '10.50', 'EUR', 'digestdigestdigest', 'owner1', 200000]);
    await queryPrepared(db, `SELECT r_outcome, r_previous, r_kind, r_taken, r_amount, r_currency, r_next_action
         FROM p.pay_record_created($1, $2, $3, $4::jsonb, $5, $6, $7::numeric, $8, $9, $10)`, ['payin', r, `t${r}`, null, 'new', 'create', '10.50', 'EUR', null, TERM]);
  },
  journal_exec: async () => {
    const r = `x${++n}`;
    await db.query('EXECUTE x_intent($1, $2, $3, $4, $5, $6, $7)', ['payin', r, '10.50', 'EUR', 'digestdigestdigest', 'owner1', 200000]);
    await db.query('EXECUTE x_rc($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', ['payin', r, `t${r}`, null, 'new', 'create', '10.50', 'EUR', null, TERM]);
  },
  floor: async () => {
    const r = `f${++n}`;
    await db.query('INSERT INTO p.floor (reference_id, amount) VALUES ($1, $2)', [r, '10.50']);
    await db.query('UPDATE p.floor SET transaction_id = $2, status = $3 WHERE reference_id = $1', [r, `t${r}`, 'new']);
  },
  intent_bare: async () => {
    const r = `a${++n}`;
    await intent(r);
    await db.query(`UPDATE p.pay_intents SET state = 'created', transaction_id = $3 WHERE kind = $1 AND reference_id = $2`, ['payin', r, `t${r}`]);
  },
  ...Object.fromEntries(['v_empty', 'v_intent', 'v_tx', 'v_txev', 'v_all', 'pay_record_created'].map((name) => [name, async () => {
    const r = `${name}${++n}`;
    await intent(r);
    await callFn(name, r);
  }])),
};
const only = process.argv[2]?.split(',');
const names = Object.keys(variants).filter((k) => !only || only.includes(k));
const per = {};
for (const k of names) per[k] = [];
const N = Number(process.argv[3] ?? 200);
for (let round = 0; round < 7; round++) {
  for (const k of names) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await variants[k]();
    per[k].push(((performance.now() - t0) * 1000) / N);
  }
}
const base = per[names[0]].slice().sort((a, b) => a - b)[0];
for (const k of names) {
  const s = per[k].sort((a, b) => a - b);
  console.log(`${k.padEnd(20)} min ${s[0].toFixed(0).padStart(5)} µs  median ${s[3].toFixed(0).padStart(5)} µs  min/floor ${(s[0] / base).toFixed(2)}`);
}
await db.close();
