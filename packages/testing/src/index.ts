/**
 * `@pay/testing`: a time-skipping test environment for a payments integration. The sandbox, a
 * client, journals and webhook receivers on one test clock: two hours of webhook retries and
 * reconciler passes run in a second, in the same order every time.
 * @module
 */
export type { TestClock } from '@pay/clock/test-clock';
export { createTestEnvironment, type TestEnvironment, type TestEnvironmentOptions } from './environment.js';
export type { ReceiverOptions, TestReceiver } from './receiver.js';
