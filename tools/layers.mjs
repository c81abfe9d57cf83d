// The layers of docs/design.md as data. A package may depend (in `dependencies`,
// `peerDependencies`, `optionalDependencies`, or an import in its published source) only on
// the workspace packages listed for it. devDependencies are free: tests may reach upward,
// e.g. a client's end-to-end test against the sandbox.
export const allowed = {
  '@pay/schema': [],
  // Loads the application's @opentelemetry/api for the packages that record; depends on nothing.
  '@pay/otel': [],
  '@pay/sign': [],
  // The one clock every package reads time through; depends on nothing.
  '@pay/clock': [],
  '@pay/webhook': ['@pay/clock', '@pay/sign', '@pay/schema', '@pay/otel'],
  '@pay/client': ['@pay/clock', '@pay/sign', '@pay/schema', '@pay/otel'],
  '@pay/journal': ['@pay/clock', '@pay/client', '@pay/webhook', '@pay/sign', '@pay/schema', '@pay/otel'],
  '@pay/sandbox': ['@pay/clock', '@pay/sign', '@pay/schema', '@pay/webhook'],
  '@pay/conformance': ['@pay/clock', '@pay/sign', '@pay/schema', '@pay/webhook', '@pay/client', '@pay/sandbox'],
  // The time-skipping test environment: every package on one test clock.
  '@pay/testing': ['@pay/clock', '@pay/client', '@pay/journal', '@pay/sandbox', '@pay/webhook'],
  // The example shop sits on top: a merchant's app built on the published packages.
  '@pay/example-shop': ['@pay/clock', '@pay/client', '@pay/journal', '@pay/schema', '@pay/webhook', '@pay/sandbox'],
  // The time-skipping environment's outage test from Vitest, Jest and node:test (devDependencies only).
  '@pay/example-time-skipping': [],
  '@pay/openapi-check': [],
  // Test support (Chromium for the browser tests, OpenTelemetry's SDK exporting to memory, the
  // exactly-once oracle read from the sandbox, the guard that keeps every test on loopback),
  // devDependencies only.
  '@pay/test-browser': [],
  '@pay/test-net-guard': [],
  '@pay/test-oracle': [],
  '@pay/test-support': ['@pay/schema'],
  '@pay/test-otel': [],
  '@pay/tools': [],
  '@pay/vectors': [],
};
