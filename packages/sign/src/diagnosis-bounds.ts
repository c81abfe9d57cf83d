// The bounds of the work an unauthenticated request can cause by failing its signature, for every
// tool that explains a refusal (the sandbox's hint, a webhook receiver's near-miss hint, the
// conformance runner's diagnosis): decided here, once.
//
// Anyone who knows a merchant id can send a request with a wrong signature, and each diagnosis
// re-signs the request a few dozen ways. So:
// - a body is tried only up to DIAGNOSIS_BODY_LIMIT bytes. Calls to the service are a few
//   kilobytes (a create with its customer and browser data), webhooks a few hundred bytes; 16 KiB
//   covers both with room, and is what node's HMAC backend hashes in one shot (hmac-node.ts).
//   Past it nothing is tried: no variant, no HMAC.
// - at most DIAGNOSIS_HMAC_LIMIT HMACs a diagnosis. The service's view tries at most 26 variants of
//   the merchant's own request and 3 for each of OTHER_MERCHANTS_TRIED other merchants (86); a
//   receiver's about 8 a secret. So a diagnosis hashes at most 96 × 16 KiB, about 1.5 MB.
// - bodies are re-serialised only up to RESERIALISE_DEPTH levels of nesting (a payload has two or
//   three), checked without parsing, so no parser or serialiser recurses deeper.
// - and diagnoses are worked out at most so many a second, by role (TokenBucket):
//   SERVICE_DIAGNOSES_PER_SECOND for a service (the sandbox: one developer's test run may fail
//   several calls at once, each worth its hint) and RECEIVER_DIAGNOSES_PER_SECOND for a webhook
//   receiver (open to the internet; one log line a second explains a misconfiguration, and a
//   flood of forged webhooks must not multiply the work). Past its budget a hint says it was
//   skipped.

/** Bodies larger than this (bytes) are not diagnosed at all: nothing is re-signed. */
export const DIAGNOSIS_BODY_LIMIT = 16 * 1024;
/** The most HMACs one diagnosis computes, whatever the request. */
export const DIAGNOSIS_HMAC_LIMIT = 96;
/** Bodies nesting deeper than this are not re-serialised. */
export const RESERIALISE_DEPTH = 16;
/** How many other merchants' credentials the service's view tries, at most. */
export const OTHER_MERCHANTS_TRIED = 20;
/** Signature diagnoses a service (the sandbox) works out per second at most, in bursts of as many. */
export const SERVICE_DIAGNOSES_PER_SECOND = 5;
/** Near-miss hints a webhook receiver (one handler) works out per second at most. */
export const RECEIVER_DIAGNOSES_PER_SECOND = 1;
