// A mistake seen on the wire, as the wire's judges (wire.ts, and raw.ts for what only the raw
// bytes show) report it. Its own file: raw.ts's findings are gathered by wire.ts.

/** A mistake seen on the wire: its name and what it is, in the SDK author's terms. */
export interface Finding {
  mistake: string;
  text: string;
}
