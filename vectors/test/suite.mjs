// Loads the committed category files. Shared by the tests; not a test itself.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const vectorsDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The seven categories of README.md, with the harness command each one uses. */
export const CATEGORIES = {
  sign_request_get: 'sign_request',
  sign_request_get_v1: 'sign_request',
  sign_request_post: 'sign_request',
  sign_request_collisions: 'sign_request',
  sign_simplified: 'sign_simplified',
  verify_webhook: 'verify_webhook',
  verify_request: 'verify_request',
};

export const fileName = (category) => `${category}.json`;

export function loadCategory(category) {
  return JSON.parse(readFileSync(join(vectorsDir, fileName(category)), 'utf8'));
}

/** Every committed file, keyed by category. */
export function loadSuite() {
  return Object.fromEntries(Object.keys(CATEGORIES).map((category) => [category, loadCategory(category)]));
}

/** Every vector of the suite with its file's command: [{ category, command, vector }]. */
export function allVectors(suite = loadSuite()) {
  return Object.entries(suite).flatMap(([category, file]) => file.vectors.map((vector) => ({ category, command: file.command, vector })));
}
