// Exchanges over `fetch`: the default wherever Node's own HTTP stack is not (browsers, Deno, Bun,
// edge workers), and what a client given `options.fetch` uses everywhere. Selected by the
// `default`, `deno` and `bun` conditions of `#exchange`.
import type { Exchanged, Exchanger, Request } from './exchange.js';
import { Body, READ_LIMIT } from './exchange.js';

/**
 * Exchanges through `fetchFn`, called unbound (some runtimes' fetch refuses another `this`). An
 * abort settles the exchange itself, at once, whether or not `fetchFn` honours its signal: a given
 * fetch that ignores it (a wrapper that drops `init.signal`, one that holds answers) must not hold
 * a call past its time limit or its caller's abort. Such an attempt counts as sent.
 */
export function fetchExchanger(fetchFn: typeof fetch): Exchanger {
  return (request) => {
    const controller = new AbortController();
    const { signal } = controller;
    const progress = { answered: false };
    const stopped = new Promise<Exchanged>((resolve) =>
      signal.addEventListener('abort', () => resolve({ kind: 'failed', error: signal.reason, answered: progress.answered }), {
        once: true,
      }),
    );
    return { abort: () => controller.abort(), done: Promise.race([run(fetchFn, request, signal, progress), stopped]) };
  };
}

/**
 * This runtime's default: the global fetch, looked up at each call (so a test tool that replaces
 * it later is seen).
 */
export const exchange: Exchanger = fetchExchanger((input, init) => globalThis.fetch(input, init));

/** `progress.answered`: the status and headers have arrived (read by an abort, too). */
async function run(fetchFn: typeof fetch, request: Request, signal: AbortSignal, progress: { answered: boolean }): Promise<Exchanged> {
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal, redirect: 'manual' };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    progress.answered = true;
    const { text, truncated } = await readText(response);
    return { kind: 'answer', status: response.status, headers: response.headers, text, truncated };
  } catch (error) {
    return { kind: 'failed', error, answered: progress.answered };
  }
}

/**
 * The body as text, at most READ_LIMIT bytes of it. A body whose declared length fits is read in
 * one go (the fast path); otherwise it is streamed and the stream cancelled at the limit, so a
 * huge or endless answer costs at most the limit in memory.
 */
async function readText(response: Response): Promise<{ text: string; truncated: boolean }> {
  const declared = response.headers.get('content-length');
  if (response.body === null) return { text: '', truncated: false };
  if (declared !== null && /^[0-9]{1,9}$/.test(declared) && Number(declared) <= READ_LIMIT) {
    return { text: await response.text(), truncated: false };
  }
  const reader = response.body.getReader();
  const body = new Body();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: body.text(), truncated: false };
    if (!body.add(value)) {
      reader.cancel().catch(() => {});
      return { text: body.text(), truncated: true };
    }
  }
}
