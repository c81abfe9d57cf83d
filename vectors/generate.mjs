#!/usr/bin/env node
// Generates the golden signature vectors: one JSON file per category, as README.md describes.
//
//   node generate.mjs [outDir]        (outDir defaults to this file's directory)
//
// Each category is one module in generator/categories/ (what its cases are); the named mistakes
// are in generator/mistakes/; generator/build.mjs computes every expected value from a case's
// input with node:crypto, so no expected value depends on this repository's own signing code.
// The output is deterministic: fixed timestamps, fixed secrets, no randomness, no clock.
// test/drift.test.mjs checks that the committed files are exactly what this script writes;
// test/recompute.test.mjs recomputes every value with a second HMAC implementation.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as signRequestGet from './generator/categories/sign_request_get.mjs';
import * as signRequestGetV1 from './generator/categories/sign_request_get_v1.mjs';
import * as signRequestPost from './generator/categories/sign_request_post.mjs';
import * as signRequestCollisions from './generator/categories/sign_request_collisions.mjs';
import * as signSimplified from './generator/categories/sign_simplified.mjs';
import * as verifyWebhook from './generator/categories/verify_webhook.mjs';
import * as verifyRequest from './generator/categories/verify_request.mjs';

const SUITE = 'pay-signature-vectors';
const SUITE_VERSION = '1.2.0';
const PROTOCOL = 1;

/** The files, in the order they are written. */
const CATEGORIES = [signRequestGet, signRequestGetV1, signRequestPost, signRequestCollisions, signSimplified, verifyWebhook, verifyRequest];

function main() {
  const here = dirname(fileURLToPath(import.meta.url));
  const outDir = resolve(process.argv[2] ?? here);
  mkdirSync(outDir, { recursive: true });
  const seen = new Set();
  for (const { category, command, description, build } of CATEGORIES) {
    const vectors = build();
    for (const { id } of vectors) {
      if (!id.startsWith(`${category}/`)) throw new Error(`${id}: not in ${category}`);
      if (seen.has(id)) throw new Error(`${id}: duplicate id`);
      seen.add(id);
    }
    const file = {
      $schema: './schema.json',
      suite: SUITE,
      suite_version: SUITE_VERSION,
      protocol: PROTOCOL,
      category,
      command,
      description,
      vectors,
    };
    writeFileSync(join(outDir, `${category}.json`), `${JSON.stringify(file, null, 2)}\n`);
    console.log(`${category}.json: ${vectors.length} vectors`);
  }
}

main();
