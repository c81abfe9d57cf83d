// The service's endpoints that server mode calls, under the base URL given: every URL exactly as a
// merchant's client writes it (creates with a trailing slash, ids and references percent-encoded).

/** The URLs of the interface under one base URL. */
export interface Endpoints {
  payins: string;
  payouts: string;
  legacy: string;
  payin(id: string): string;
  payout(id: string): string;
  payinByRef(reference: string): string;
  payoutByRef(reference: string): string;
}

/** The endpoints under `base` (no trailing slash). */
export function endpoints(base: string): Endpoints {
  return {
    payins: `${base}/v2/merchants/payins/`,
    payouts: `${base}/v2/merchants/payouts/`,
    legacy: `${base}/v1/merchants/payins/`,
    payin: (id) => `${base}/v2/merchants/payins/${encodeURIComponent(id)}`,
    payout: (id) => `${base}/v2/merchants/payouts/${encodeURIComponent(id)}`,
    payinByRef: (r) => `${base}/v2/merchants/payins/?reference_id=${encodeURIComponent(r)}`,
    payoutByRef: (r) => `${base}/v2/merchants/payouts/?reference_id=${encodeURIComponent(r)}`,
  };
}
