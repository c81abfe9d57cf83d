// What every suite needs: one home each. PostgreSQL and Redis are their own entries
// (`@pay/test-support/postgres`, `/redis`), so a suite that starts neither does not load them.
export { payinBody, payoutBody } from './bodies.mjs';
export { freePort } from './ports.mjs';
export { runToEnd } from './run-to-end.mjs';
export { until } from './until.mjs';
