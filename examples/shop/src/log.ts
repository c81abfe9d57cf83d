// What the shop logs about its payments, one line each. The handler logs every change to an order
// (with the source that brought it: create, webhook, recovery or reconciler); the journal's
// reports add what never reaches the handler (a duplicate webhook, a late one for a settled
// order) and each step of the reconciler. Reports carry ids, references and statuses only.
import type { JournalEvent, JournalReport } from '@pay/journal';
import type { OrderStatus } from './orders.js';

/** The line for one handler call: `order-…: executed from reconciler -> order paid`. */
export function handledLine(event: JournalEvent, status: OrderStatus | undefined): string {
  const order = status === undefined ? 'no order of this shop' : `order ${status}`;
  return `${event.referenceId}: ${event.status} from ${event.source} -> ${order}`;
}

/** The line for a journal report, or undefined for an event the handler has logged already. */
export function reportLine(report: JournalReport): string | undefined {
  switch (report.type) {
    case 'event':
      if (report.outcome === 'change' || report.outcome === 'delivered') return undefined;
      return `${report.referenceId}: ${report.status} from ${report.source} (${report.outcome === 'duplicate' ? 'a duplicate, acknowledged' : 'too late: a settled status stays'})`;
    case 'check': {
      const found = report.status === undefined ? '' : ` ${report.status}`;
      const why = report.reason === undefined ? '' : ` (${report.reason})`;
      const next = report.nextAt === null ? 'no more lookups' : `next lookup at ${report.nextAt.toISOString()}`;
      return `reconciler: looked up ${report.id} (${report.referenceId}):${found} ${report.result}${why}; ${next}`;
    }
    case 'give_up':
      return `reconciler: gave up on ${report.id} (${report.referenceId}) after ${report.checks} lookups, still ${report.status ?? 'without a status'}: a person should look`;
    case 'rate_limited':
      return 'reconciler: the service answered 429, this pass ends early';
    case 'pass_failed':
      return `reconciler: a pass failed (${report.reason}); the next one tries again`;
    case 'embedded_database': {
      const where = report.dataDir === null ? 'in memory' : `in ${report.dataDir}`;
      if (report.state === 'starting') return `database: starting the embedded PGlite (${where}), a few seconds`;
      const how = report.cluster === 'copied' ? ', from the cluster kept in the cache directory' : '';
      return `database: the embedded PGlite is ready (${((report.ms ?? 0) / 1000).toFixed(1)} s${how})`;
    }
  }
}
