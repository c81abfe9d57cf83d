// The events table's statements. Events are written only by the record_event function
// (functions.ts), inside the same statement that judges them; here they are read back.
import type { Names } from '../names.js';
import type { Statement } from './statement.js';
import { isoText } from './text.js';

/**
 * Every status recorded for a transaction, oldest first (recorded_at as ISO text). Statuses
 * recorded at the same time (a test clock standing still) come in the order they arrived, which
 * the transaction's row keeps (its `statuses`).
 */
export const readHistory = (n: Names, kind: string, id: string): Statement => ({
  step: 'read history',
  text: `SELECT e.status, e.source, e.outcome, e.previous, ${isoText('e.recorded_at')} AS recorded_at
         FROM ${n.events} e LEFT JOIN ${n.transactions} t ON t.kind = e.kind AND t.id = e.transaction_id
        WHERE e.kind = $1 AND e.transaction_id = $2
        ORDER BY e.recorded_at, array_position(t.statuses, e.status), e.status`,
  params: [kind, id],
});
