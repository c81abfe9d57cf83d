// Group commit: statements that many creates run at once (their intents, their outcomes) go to the
// database together, one statement and one commit per group, as databases and Kafka producers
// group their own writes. A group leaves as soon as the database is free and the event loop's
// current turn is over: nothing waits on a timer, so a create alone pays next to nothing for it. While a group is on its way, the creates that
// arrive wait for it and leave together next, up to `maxSize` at once. So the busier the journal,
// the larger the groups and the fewer commits per create.
//
// Each create keeps its own answer: the group's statement answers per item, and when the group
// statement fails as a whole (one item's bad value, a refused row, a lost connection), nothing of
// it was applied (one statement, one transaction), and every item is run again alone, so each gets
// the answer it would have had by itself.

/** What a group's statement answered for one item: its value, or the error of that item alone. */
export type ItemResult<O> = { readonly ok: true; readonly value: O } | { readonly ok: false; readonly error: unknown };

/** How a group is run: all its items in one statement, or one item alone. */
export interface GroupWork<I, O> {
  /** Runs `items` (two or more) in one statement: one result per item, in their order. Throws: nothing was applied. */
  readonly together: (items: readonly I[]) => Promise<readonly ItemResult<O>[]>;
  /** Runs one item in a statement of its own (an item alone, or each item of a group that failed). */
  readonly alone: (item: I) => Promise<O>;
}

interface Waiting<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A function that runs each item given to it in a group with the others given meanwhile. Items
 * given in the same turn of the event loop, or while a group is on its way, leave together.
 * `othersMayCome`: false when no other item can be on its way (nothing else runs that could give
 * one): the item then leaves without waiting for the turn's end.
 */
export function groupCommit<I, O>(work: GroupWork<I, O>, maxSize: number, othersMayCome: () => boolean): (item: I) => Promise<O> {
  let waiting: Waiting<I, O>[] = [];
  let running = false;

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const group = waiting.slice(0, maxSize);
      waiting = waiting.slice(group.length);
      await runGroup(group);
    }
    running = false;
  }

  async function runGroup(group: readonly Waiting<I, O>[]): Promise<void> {
    if (group.length === 1) return settle(group[0]!, () => work.alone(group[0]!.item));
    let results: readonly ItemResult<O>[];
    try {
      results = await work.together(group.map((w) => w.item));
    } catch {
      // Nothing was applied: each item alone, at once (each has its own connection to wait for).
      await Promise.all(group.map((w) => settle(w, () => work.alone(w.item))));
      return;
    }
    group.forEach((w, i) => {
      const result = results[i];
      if (result === undefined) w.reject(new Error('@pay/journal: a group statement answered fewer items than it was given'));
      else if (result.ok) w.resolve(result.value);
      else w.reject(result.error);
    });
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running) return;
      running = true;
      // Alone: now (after this turn's microtasks). Else at the end of this turn of the event loop:
      // the items that the same turn's I/O (answers that came in together) moved to this step
      // join the group. Waiting on the database alone would not gather them on PGlite, which
      // works in this thread: its statement is done before any other answer is read.
      if (othersMayCome()) setImmediate(() => void drain());
      else queueMicrotask(() => void drain());
    });
}

/** Runs `fn` and hands its value or error to `w`; never throws. */
async function settle<I, O>(w: Waiting<I, O>, fn: () => Promise<O>): Promise<void> {
  try {
    w.resolve(await fn());
  } catch (error) {
    w.reject(error);
  }
}
