// The embedded database's upkeep (see reconciler/upkeep.ts): the statistics that say which of the
// journal's tables have enough dead rows to vacuum, or enough changed ones to analyze, and the
// statements that do it. The thresholds are PostgreSQL's own autovacuum defaults.
import type { Names } from '../names.js';
import { PREPARE } from '../port.js';
import type { Statement } from './statement.js';

/** The tables the journal updates or deletes in: each gets dead rows (events is only inserted into). */
export const UPKEPT = ['intents', 'transactions', 'checks'] as const;
export type UpkeptTable = (typeof UPKEPT)[number];

/** Asks the statistics of this session to be written now, so the next statement reads them whole. */
export const flushStatistics: Statement = {
  step: 'upkeep',
  text: 'SELECT pg_catalog.pg_stat_force_next_flush()',
  params: [],
};

/**
 * Which of the journal's tables are due: a VACUUM (ANALYZE) past 50 + 20% dead rows, an ANALYZE
 * alone past 50 + 10% rows changed since the last (autovacuum_vacuum_threshold and _scale_factor,
 * autovacuum_analyze_threshold and _scale_factor, as a server's autovacuum would).
 *
 * The counts are read with the functions `pg_stat_user_tables` is made of, for the three tables
 * alone: the view computes some twenty columns for every table of the database, and on PGlite it
 * cost about ten times as much (2 to 6 ms against 0.6 on this machine), after every pass.
 */
export const dueForUpkeep = (n: Names): Statement => ({
  step: 'upkeep',
  // Each table by its own quoted name (::regclass), one parameter each (a prepared statement's
  // parameters go as text, never as an array), answered by its place in UPKEPT (1-based).
  // Prepared (PREPARE): it runs after every pass.
  text: `${PREPARE}SELECT u.place AS place,
                pg_catalog.pg_stat_get_dead_tuples(u.id) > 50 + 0.2 * pg_catalog.pg_stat_get_live_tuples(u.id) AS vacuum,
                pg_catalog.pg_stat_get_mod_since_analyze(u.id) > 50 + 0.1 * pg_catalog.pg_stat_get_live_tuples(u.id) AS analyze
           FROM (SELECT place, name::regclass::oid AS id
                   FROM (VALUES ${UPKEPT.map((_, i) => `(${i + 1}, $${i + 1}::text)`).join(', ')}) AS t(place, name)) u`,
  params: UPKEPT.map((t) => n[t]),
});

/** `VACUUM (ANALYZE)` of one table, or `ANALYZE` alone. */
export const upkeepOf = (n: Names, table: UpkeptTable, vacuum: boolean): Statement => ({
  step: 'upkeep',
  text: `${vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${n[table]}`,
  params: [],
});
