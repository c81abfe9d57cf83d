// Turns a SEA preparation blob into an executable: a copy of the Node binary that runs this
// script, with the blob injected (postject). macOS refuses to run a binary whose signature no
// longer matches its bytes, so there the copy's signature is removed first and an ad hoc one
// made after. A Windows copy keeps Node's signature, now invalid (the executable runs; signing it
// for real, or `signtool remove /s` first, is left to whoever publishes it signed).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync } from 'node:fs';
import { inject } from 'postject';

/** The fuse Node looks for to know that it carries a blob (the same in every Node version). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Writes the executable `file`: this Node with `blob` injected. */
export async function injectBlob(blob, file) {
  copyFileSync(process.execPath, file);
  if (process.platform !== 'win32') chmodSync(file, 0o755);
  if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', file]);
  await quietly(() =>
    inject(file, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: FUSE,
      ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
    }),
  );
  if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', file]);
}

/**
 * Runs `job` without the warnings postject's ELF reader writes through console.warn for each note
 * section of Node's Linux binary it cannot name (harmless, and a dozen lines of noise per
 * executable). Any other warning still shows.
 */
async function quietly(job) {
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    await job();
  } finally {
    console.warn = warn;
  }
}
