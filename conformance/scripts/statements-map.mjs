// Writes the README's map of what client mode judges (between <!-- client-map --> and
// <!-- /client-map -->) from the built statements and cases; test/statements.test.ts fails when the
// README is not what this writes. Run after `pnpm build`: node scripts/statements-map.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_CASES } from '../dist/http/client/cases.js';
import { statementsMap } from '../dist/http/client/statements-map.js';
import { STATEMENTS } from '../dist/http/client/statements.js';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
const text = readFileSync(readme, 'utf8');
const [open, close] = ['<!-- client-map -->', '<!-- /client-map -->'];
const from = text.indexOf(open);
const to = text.indexOf(close);
if (from < 0 || to < from) throw new Error(`README.md has no ${open} … ${close} section`);
writeFileSync(readme, `${text.slice(0, from + open.length)}\n${statementsMap(STATEMENTS, CLIENT_CASES)}\n${text.slice(to)}`);
console.log('README.md: the map of statements written');
