// Valid request bodies, from the schema's own examples (checked against the schemas by
// @pay/schema's tests), with the fields a test varies laid over them.
import { EXAMPLES } from '@pay/schema';

const fresh = (example, overrides) => ({ ...structuredClone(example), ...overrides });

/** A valid payin create body (version 2). */
export const payinBody = (overrides = {}) => fresh(EXAMPLES.createPayin, overrides);
/** A valid payout create body. */
export const payoutBody = (overrides = {}) => fresh(EXAMPLES.createPayout, overrides);
