#!/usr/bin/env node
// Sums the test runner's own reports (vitest JSON in <package>/.reports/) into the one line CI
// ends with:
//   tests: N passed, N failed
// A run in which no report was found is a failure, so "no tests ran" can never look green.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePackages } from './workspace.mjs';

let passed = 0;
let failed = 0;
let reports = 0;
for (const { dir } of workspacePackages()) {
  const file = join(dir, '.reports', 'vitest.json');
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  reports += 1;
  passed += report.numPassedTests;
  // Failed tests, plus each file that failed before any of its tests ran (an import error, say).
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0);
  failed += report.numFailedTests + brokenFiles.length;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
if (reports === 0 || passed === 0 || failed > 0) process.exit(1);
