// Telling the merchant's logs about failures. Refusals and failed deliveries go to `onRefused`
// (by default one console.warn line each), never to the caller; and a log sink that throws must
// change neither the answer nor what the pipeline does after reporting.
import type { WebhookFailure } from './refusals.js';

/** The default log sink: one line per failure; reading `hint` here is what works it out. */
function warn(failure: WebhookFailure): void {
  const hint = 'hint' in failure && failure.hint ? ` (${failure.hint})` : '';
  const line = `@pay/webhook: ${failure.status} ${failure.reason}: ${failure.message}${hint}`;
  // The handler's or the store's own error, with its stack: the merchant's code, the merchant's log.
  if ('error' in failure) console.warn(line, failure.error);
  else console.warn(line);
}

/** Reports a failure to the merchant's log sink. Never throws. */
export type Report = (failure: WebhookFailure) => void;

/** The reporter of a handler: `onRefused`, or the default sink, guarded so that it never throws. */
export function reporter(onRefused: ((failure: WebhookFailure) => void) | undefined): Report {
  const sink = onRefused ?? warn;
  return (failure) => {
    try {
      sink(failure);
    } catch (error) {
      console.warn('@pay/webhook: onRefused threw while reporting a failure; the answer is unchanged', error);
    }
  };
}
