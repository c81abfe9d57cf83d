// The exactly-once oracle of the client's and the journal's tests, read from the sandbox itself,
// never from the code under test. Two independent counts:
//
// - records per reference_id (GET /_sandbox/transactions): more than one record of a merchant's
//   payins (or payouts) under one reference_id is a create that happened twice. Only a sandbox
//   started with `uniqueReferences: false` can hold such a pair; the default sandbox refuses the
//   second create instead, so there it proves nothing alone.
// - creates refused as duplicates (GET /_sandbox/requests): a POST to a create endpoint answered
//   409 `duplicate_reference_id` is a create sent for a reference that was already created. The
//   SDKs under test never need one: the client sends a create again only once a lookup has proven
//   the first one was not created, and the journal never sends one for a reference it has recorded
//   or has in flight. So for them the count must be zero, whatever the client then made of the 409.
//
// The request log keeps only the newest 1000 entries, so a long run is followed while it runs
// (followRequests); a gap in the log's numbering is an error, never a silent "none found".

const CREATE_PATH = /^\/v[12]\/merchants\/(?:payins|payouts)\/$/;

/** The records that share a merchant, kind and reference_id with another, grouped; none when every create happened once. */
export function duplicatedReferences(transactions) {
  const groups = new Map();
  for (const t of transactions) {
    if (t.reference_id === null || t.reference_id === undefined) continue;
    const key = `${t.merchant_id}\u0000${t.kind}\u0000${t.reference_id}`;
    const group = groups.get(key) ?? { merchant_id: t.merchant_id, kind: t.kind, reference_id: t.reference_id, ids: [] };
    group.ids.push(t.id);
    groups.set(key, group);
  }
  return [...groups.values()].filter((g) => g.ids.length > 1);
}

/** The logged requests that are creates refused because their reference_id was already used. */
export function refusedDuplicateCreates(requests) {
  return requests.filter(
    (r) => r.method === 'POST' && r.status === 409 && r.code === 'duplicate_reference_id' && CREATE_PATH.test(r.path.split('?')[0]),
  );
}

/**
 * Follows the sandbox's request log from now on: every `intervalMs` (none: only when stopped) it
 * reads the entries that arrived since the last read. `stop()` reads once more and resolves with
 * every entry seen, oldest first; it rejects when entries were missed (more arrived between two
 * reads than the log keeps) or the log was reset meanwhile, since a count of 409s over an
 * incomplete log proves nothing.
 */
export async function followRequests(admin, { intervalMs } = {}) {
  // The last entry read; a later read must find it unchanged (a reset numbers entries from 1 again).
  let last = (await admin.requests({ limit: 1 }))[0];
  const same = (a, b) => a.seq === b.seq && a.at === b.at && a.method === b.method && a.path === b.path;
  const seen = [];
  let problem;
  let lastFresh = 0;
  let reading = Promise.resolve();
  const read = async () => {
    // Ask for about as many as came last time (cheap), and for the whole log when that fell short.
    let limit = Math.min(1000, Math.max(50, 2 * lastFresh));
    for (;;) {
      const entries = await admin.requests({ limit }); // newest first
      const at = last === undefined ? -1 : entries.findIndex((e) => e.seq === last.seq);
      if (at >= 0 && !same(entries[at], last)) {
        problem ??= 'the request log was reset while followed';
        return;
      }
      const reached = last === undefined ? entries.length === 0 || entries.at(-1).seq === 1 : at >= 0;
      if (!reached && last !== undefined && entries.length > 0 && entries[0].seq <= last.seq) {
        problem ??= 'the request log was reset while followed';
        return;
      }
      if (!reached && limit < 1000) {
        limit = 1000;
        continue;
      }
      if (!reached) problem ??= 'requests were missed (more arrived between two reads than the log keeps)';
      const fresh = (at >= 0 ? entries.slice(0, at) : entries).reverse();
      seen.push(...fresh);
      lastFresh = fresh.length;
      if (fresh.length > 0) last = fresh.at(-1);
      return;
    }
  };
  const next = () => {
    reading = reading.then(read).catch((error) => {
      problem ??= `the request log could not be read: ${error?.message ?? error}`;
    });
    return reading;
  };
  const timer = intervalMs === undefined ? undefined : setInterval(next, intervalMs);
  return {
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      await next();
      if (problem !== undefined) throw new Error(`followRequests: ${problem}`);
      return seen;
    },
  };
}

/**
 * What the sandbox says about the creates of a test: `duplicated`, the references with more than
 * one record (of those `only` keeps), and `refused`, the creates refused as duplicates among
 * `requests` (from {@link followRequests}). Both empty when every create happened once.
 */
export async function exactlyOnceReport(admin, { requests = [], only = () => true } = {}) {
  const transactions = (await admin.transactions()).filter((t) => t.reference_id != null && only(t.reference_id));
  return {
    records: transactions.length,
    duplicated: duplicatedReferences(transactions),
    refused: refusedDuplicateCreates(requests).map((r) => ({
      seq: r.seq,
      path: r.path,
      reference_id: referenceOf(r.body),
      message: r.message,
    })),
  };
}

/** The reference_id of a logged create body, when it can be read. */
function referenceOf(body) {
  try {
    return JSON.parse(body ?? '').reference_id ?? null;
  } catch {
    return null;
  }
}

/**
 * The deliberately wrong variant the oracle must catch: `client` (of any copy of @pay/client,
 * with that copy's `isPayError`) whose payins.create and payouts.create, when the answer was lost
 * (an `outcome_unknown` error), are sent again at once, directly, as a hand-written retry wrapper
 * around the client or the journal would. Only the sandbox can tell that two creates were sent.
 */
export function resendingAfterLostAnswer(client, isPayError) {
  const again = (create) => async (body, options) => {
    try {
      return await create(body, options);
    } catch (error) {
      if (!isPayError(error, 'outcome_unknown')) throw error;
      return create(body, options); // wrong: nothing proved that the first was not created
    }
  };
  return {
    ...client,
    payins: { ...client.payins, create: again(client.payins.create) },
    payouts: { ...client.payouts, create: again(client.payouts.create) },
  };
}

/**
 * The same mistake one layer down: a `fetch` (for @pay/client's `fetch` option) that sends a POST
 * again once when its answer is lost (the connection failed after the request went out), as a
 * naive retrying HTTP layer or proxy does. The client sees one answer and never knows.
 */
export function resendingFetch(fetchImpl = globalThis.fetch) {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || init?.signal?.aborted) throw error;
      return fetchImpl(input, init); // wrong: the first may have been created
    }
  };
}
