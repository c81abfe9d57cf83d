// The net guard in a Node process a test starts: setup.mjs puts `--import` of this file in
// NODE_OPTIONS, so every Node child that inherits the test's environment (the sandbox's and the
// shop's command lines, the conformance runner, crash children) refuses lookups beyond loopback as
// the test process does, and appends each to the report file the test's setup reads.
import { allowLookup, installNetGuard } from './index.mjs';

const report = process.env['PAY_NET_GUARD_REPORT'];
installNetGuard(report === undefined || report === '' ? {} : { report });
// A parent test that declared an exception for its children (PAY_NET_GUARD_ALLOW, names separated
// by commas): the consumer test's npm installs fetch third-party packages from the npm registry.
for (const name of (process.env['PAY_NET_GUARD_ALLOW'] ?? '').split(',')) {
  if (name.trim() !== '') allowLookup(name.trim(), 'declared by the parent test in PAY_NET_GUARD_ALLOW');
}
