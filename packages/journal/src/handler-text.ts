// What a handler's query refuses of a text: a statement that would end or take over the journal's
// transaction (transaction-control.ts), or change the session that later callers of the connection
// inherit (session-state.ts). Both guards read the whole text under both readings of its strings,
// about 5 µs for a short INSERT, on every statement of every handler; but a handler sends the same
// few texts again and again (its values go in parameters), and the verdict depends on the text
// alone. So each text is read once, and its verdict kept.
import { sessionChangeIn } from './session-state.js';
import { transactionControlIn } from './transaction-control.js';

/**
 * The verdicts kept, by text: the refusal's message, or null for a text allowed. Bounded: past
 * {@link MOST_VERDICTS} texts it starts again, so a handler that writes its values into its texts
 * keeps none of them for long, and pays the reading as it did before.
 */
const verdicts = new Map<string, string | null>();
const MOST_VERDICTS = 256;
/** Longer texts are read each time: the map holds at most MOST_VERDICTS × this many characters. */
const LONGEST_KEPT = 4_096;

/** Why a handler's query refuses `text` (the TypeError's message), or undefined when it runs it. */
export function refusalOf(text: string): string | undefined {
  let verdict = verdicts.get(text);
  if (verdict === undefined) {
    verdict = judge(text);
    if (text.length > LONGEST_KEPT) return verdict ?? undefined;
    if (verdicts.size >= MOST_VERDICTS) verdicts.clear();
    verdicts.set(text, verdict);
  }
  return verdict ?? undefined;
}

function judge(text: string): string | null {
  const control = transactionControlIn(text);
  if (control !== undefined) {
    return `@pay/journal: a handler's query cannot run ${control}: the journal's transaction commits your writes with the event, and a throw rolls both back`;
  }
  const change = sessionChangeIn(text);
  if (change !== undefined) {
    return `@pay/journal: a handler's query cannot run ${change.statement}: it would outlive the journal's transaction on a connection later calls reuse; use ${change.instead} instead`;
  }
  return null;
}
