#!/usr/bin/env node
/// <reference types="node" />
// `pay-sandbox`, the process: its arguments, standard output and error, and environment handed to
// the command line (cli/main.ts), whose exit code becomes the process's.
import type { Io } from './cli/common.js';
import { runCommandLine } from './cli/main.js';

const io: Io = {
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
  env: process.env,
};

// No top-level await: the single executable (tools/executables.mjs) runs this file bundled as
// CommonJS, where a module cannot await.
void runCommandLine(process.argv.slice(2), io).then((code) => {
  if (code !== undefined) process.exitCode = code;
});
