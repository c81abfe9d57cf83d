// Where the journal's reports go: the merchant's `onReport`, and OpenTelemetry (telemetry.ts).
// A report function that throws is ignored: logging must never change what happens to money.
import type { JournalReport } from './report.js';
import { recordReport } from './telemetry.js';

/** Where reports go: the option, made safe to call (undefined: nothing to report). */
export type Reporter = (report: JournalReport | undefined) => void;

/**
 * A reporter that records each report for OpenTelemetry (when the application registered a
 * provider) and calls `onReport`, ignoring anything either throws.
 */
export function reporter(onReport: ((report: JournalReport) => void) | undefined): Reporter {
  return (report) => {
    if (report === undefined) return;
    try {
      recordReport(report);
      onReport?.(report);
    } catch {
      // A broken logger or exporter must not turn a payment into an error.
    }
  };
}
