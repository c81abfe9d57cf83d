// The net guard in a Node process a test starts: setup.mjs puts `--import` of this file in
// NODE_OPTIONS, so every Node child that inherits the test's environment (the sandbox's and the
// shop's command lines, the conformance runner, crash children) refuses lookups beyond loopback as
// the test process does, and appends each to the report file the test's setup reads.
import { installNetGuard } from './index.mjs';

const report = process.env['PAY_NET_GUARD_REPORT'];
installNetGuard(report === undefined || report === '' ? {} : { report });
