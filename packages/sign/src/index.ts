/**
 * HMAC-SHA256 signatures of the payments service: `x-signature` on calls and webhooks,
 * `x-simplified-signature` on card-data pushes, and their verification. Exact bytes in,
 * lowercase hex out; pure JavaScript everywhere, node:crypto on Node.
 * @module
 */
export type { HeadersLike } from './headers.js';
export { readHeader } from './headers.js';
export { urlProblem } from './assert.js';
export type { SignatureMatchesOptions } from './matches.js';
export { signatureMatches } from './matches.js';
export type { SignRequestOptions, SignSimplifiedOptions, SignedHeaders, SimplifiedSignedHeaders } from './sign.js';
export { signRequest, signSimplified } from './sign.js';
export type { SignedInstead, SigningMistake } from './catalogue.js';
export type { OtherMerchant, RefusedCardPush, RefusedRequest } from './signed-instead.js';
export { signedInstead, simplifiedSignedInstead } from './signed-instead.js';
export type { RefusedWebhook } from './received-instead.js';
export { receivedInstead } from './received-instead.js';
export { DIAGNOSIS_BODY_LIMIT, RECEIVER_DIAGNOSES_PER_SECOND, SERVICE_DIAGNOSES_PER_SECOND } from './diagnosis-bounds.js';
export { TokenBucket } from './token-bucket.js';
export type { SignedCardPush, SignedRequest } from './string-to-sign.js';
export { simplifiedStringToSign, stringToSign } from './string-to-sign.js';
export type { VerifyFailureReason, VerifyRequestOptions, VerifyResult, VerifySimplifiedOptions } from './verify.js';
export { verifyRequest, verifySimplified } from './verify.js';
