import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export type { ReadableSpan };

/** One data point of a counter (its sum) or a histogram (its count). */
export interface Point {
  name: string;
  attributes: Attributes;
  value: number;
}

/** The providers registered, and what they recorded. */
export interface Recorded {
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** What was measured since the last call (counters' sums, histograms' counts). */
  points(): Promise<Point[]>;
  /** Unregisters the providers (the API then records nothing) and shuts them down. */
  close(): Promise<void>;
}

/** Registers an SDK tracer provider, meter provider and context manager as the global ones. */
export declare function registerOtel(): Recorded;
/** Every string a span or data point carries: names, attribute values, event names and attributes, status message. */
export declare function recordedText(spans: readonly ReadableSpan[], points: readonly Point[]): string[];
