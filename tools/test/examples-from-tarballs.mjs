// The README examples consumer.test.mjs runs in projects that installed the packages from their
// tarballs, as a user does; readme-examples.test.mjs runs every other js example against the
// workspace and leaves these out, so that each example runs once a suite (@pay/testing's, two
// hours on a test clock and an embedded PostgreSQL, is the slowest of all).

/**
 * Each example by its package, the package's folder, its place among the README's js blocks
 * (from 1, as readme-examples names them) and the project it runs in: `app`, the root README's
 * application, or `tester`, the project @pay/testing's README installs.
 */
export const EXAMPLES_FROM_TARBALLS = [
  { name: '@pay/client', path: 'packages/client', index: 1, project: 'app' },
  { name: '@pay/webhook', path: 'packages/webhook', index: 1, project: 'app' },
  { name: '@pay/testing', path: 'packages/testing', index: 1, project: 'tester' },
];

/** Whether consumer.test.mjs runs example `index` of `name` (see EXAMPLES_FROM_TARBALLS). */
export const runFromTarballs = (name, index) => EXAMPLES_FROM_TARBALLS.some((e) => e.name === name && e.index === index);
