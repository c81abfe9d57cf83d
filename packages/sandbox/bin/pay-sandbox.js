#!/usr/bin/env node
// The `pay-sandbox` command. A file of its own, present before the first build, so installing the
// workspace can link the command into the packages that use the sandbox; the program is dist/cli.js.
import '../dist/cli.js';
