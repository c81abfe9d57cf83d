// What the journal tells OpenTelemetry: a span per create (`journal payins.create`), per recover()
// and per reconciler pass, inside which the client's own spans (the HTTP requests, the lookups)
// and the merchant's handler nest; and, derived from the reports (report.ts), a span event and a
// counter for every event recorded, every reconciler lookup, every transaction given up. All of it
// only while the application has registered a tracer or meter provider: otherwise the journal
// runs exactly as it would without this file. What goes in is what a report holds (kinds, ids,
// reference_ids as @pay/client records them, statuses, outcomes, counts), and of an error only its
// name: never a body, an amount, a customer's data or the text of a database's error. Counters
// take no per-transaction attribute.
import type { Attributes, Counter } from '@opentelemetry/api';
import { instrumentsOn, otel, tracerNow } from './otel.js';
import type { JournalReport } from './report.js';

interface Instruments {
  readonly events: Counter;
  readonly checks: Counter;
  readonly gaveUp: Counter;
  readonly passes: Counter;
}

/** The journal's counters on the registered meter provider's meter; undefined while there is none. */
const instrumentsNow = instrumentsOn<Instruments>((meter) => ({
  events: meter.createCounter('pay.journal.events', {
    unit: '{event}',
    description:
      'Statuses recorded, by kind, source (create, webhook, recovery, reconciler) and outcome (change, delivered, stale, duplicate).',
  }),
  checks: meter.createCounter('pay.journal.checks', {
    unit: '{lookup}',
    description: 'Reconciler lookups, by kind and result (changed, unchanged, not_found, failed).',
  }),
  gaveUp: meter.createCounter('pay.journal.gave_up', {
    unit: '{transaction}',
    description: 'Transactions the reconciler stopped looking up, still not terminal after giveUpMs.',
  }),
  passes: meter.createCounter('pay.journal.reconciler.passes', {
    unit: '{pass}',
    description: 'Reconciler passes that ended early (rate_limited) or failed (pass_failed).',
  }),
}));

/** What a report says, as attributes. */
function reportAttributes(report: JournalReport): Attributes {
  switch (report.type) {
    case 'event':
      return {
        'pay.transaction.kind': report.kind,
        'pay.transaction.id': report.id,
        'pay.reference_id': report.referenceId,
        'pay.transaction.status': report.status,
        'pay.journal.source': report.source,
        'pay.journal.outcome': report.outcome,
      };
    case 'check': {
      const attributes: Attributes = {
        'pay.transaction.kind': report.kind,
        'pay.transaction.id': report.id,
        'pay.reference_id': report.referenceId,
        'pay.journal.check.result': report.result,
        'pay.journal.checks': report.checks,
      };
      if (report.status !== undefined) attributes['pay.transaction.status'] = report.status;
      // A reason is the journal's own text of an error: its name is enough and carries nothing of the database's.
      if (report.reason !== undefined) attributes['error.type'] = report.reason.split(':', 1)[0]!;
      return attributes;
    }
    case 'give_up': {
      const attributes: Attributes = {
        'pay.transaction.kind': report.kind,
        'pay.transaction.id': report.id,
        'pay.journal.checks': report.checks,
      };
      if (report.status !== null) attributes['pay.transaction.status'] = report.status;
      return attributes;
    }
    case 'rate_limited':
      return {};
    case 'pass_failed':
      return { 'error.type': report.reason.split(':', 1)[0]! };
    case 'embedded_database':
      return { 'pay.journal.embedded.state': report.state, ...(report.ms === undefined ? {} : { 'pay.journal.embedded.ms': report.ms }) };
  }
}

/** Counters take no per-transaction attributes (an id would make one series per transaction). */
const COUNTED = new Set(['pay.transaction.kind', 'pay.journal.source', 'pay.journal.outcome', 'pay.journal.check.result', 'error.type']);

/** The counter each type of report adds to (the embedded database's start adds to none). */
const COUNTER: Partial<Record<JournalReport['type'], keyof Instruments>> = {
  event: 'events',
  check: 'checks',
  give_up: 'gaveUp',
  rate_limited: 'passes',
  pass_failed: 'passes',
};

/**
 * Records a report: as an event on the active span (a create's, a reconciler pass's, or the
 * webhook's span that @pay/webhook started) and in the counters.
 */
export function recordReport(report: JournalReport): void {
  if (otel === undefined) return;
  const instruments = instrumentsNow(otel);
  const span = tracerNow(otel) === undefined ? undefined : otel.api.trace.getActiveSpan();
  if (instruments === undefined && span === undefined) return;
  const attributes = reportAttributes(report);
  span?.addEvent(`pay.journal.${report.type}`, attributes);
  const counter = COUNTER[report.type];
  if (instruments === undefined || counter === undefined) return;
  const counted: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (COUNTED.has(key)) counted[key] = value;
  if (counter === 'passes') counted['pay.journal.pass'] = report.type;
  instruments[counter].add(1, counted);
}

/**
 * Runs `work` inside a span named `name` (a child of the caller's active span), ended with the
 * attributes `ended` derives from its result, or with the error's name when it throws. Without a
 * tracer provider, `work` simply runs.
 */
export function traced<T>(name: string, attributes: Attributes, work: () => Promise<T>, ended: (result: T) => Attributes): Promise<T> {
  if (otel === undefined) return work();
  const tracer = tracerNow(otel);
  if (tracer === undefined) return work();
  const { api } = otel;
  const span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, attributes });
  if (!span.isRecording()) {
    span.end();
    return work();
  }
  return api.context.with(api.trace.setSpan(api.context.active(), span), work).then(
    (result) => {
      span.setAttributes(ended(result));
      span.end();
      return result;
    },
    (error: unknown) => {
      span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
      throw error;
    },
  );
}
