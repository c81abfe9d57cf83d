// The events table's statements. Events are written only by the record_event function
// (functions.ts), inside the same statement that judges them; here they are read back.
import type { Names } from '../names.js';
import type { Statement } from './statement.js';
import { isoText } from './text.js';

/** Every status recorded for a transaction, oldest first (recorded_at as ISO text). */
export const readHistory = (n: Names, kind: string, id: string): Statement => ({
  step: 'read history',
  text: `SELECT status, source, outcome, previous, ${isoText('recorded_at')} AS recorded_at
         FROM ${n.events} WHERE kind = $1 AND transaction_id = $2 ORDER BY recorded_at, status`,
  params: [kind, id],
});
