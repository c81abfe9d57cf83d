// The map of what client mode judges: every case names statements that exist, every statement is
// judged (by cases, on every request or answer, or by another mode) or listed as a gap, each
// protocol statement is still in PROTOCOL.md word for word, and the README shows the map exactly as
// scripts/statements-map.mjs writes it from these tables.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_CASES } from '../src/http/client/cases.js';
import { casesByStatement, statementsMap } from '../src/http/client/statements-map.js';
import { STATEMENTS } from '../src/http/client/statements.js';
import { pkgDir } from './helpers.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');
const ids = new Set(STATEMENTS.map((s) => s.id));
const judged = casesByStatement(CLIENT_CASES);

describe('the statements client mode judges', () => {
  it('are each listed once', () => {
    expect(ids.size).toBe(STATEMENTS.length);
  });

  it('are what every case names, and every case names one at least', () => {
    for (const c of CLIENT_CASES) {
      expect(c.judges.length, c.name).toBeGreaterThan(0);
      for (const id of c.judges) expect(ids.has(id), `${c.name} judges ${id}`).toBe(true);
    }
  });

  it('are each judged somewhere, or listed as a gap, and a gap no case judges', () => {
    for (const s of STATEMENTS) {
      const cases = judged.get(s.id) ?? [];
      const somewhere = cases.length > 0 || s.every !== undefined || s.elsewhere !== undefined;
      expect(somewhere || s.gap !== undefined, `${s.id}: judged nowhere, and not listed as a gap`).toBe(true);
      // A gap a case now judges is a stale gap: the map would understate what is proven.
      expect(s.gap !== undefined && cases.length > 0, `${s.id}: a gap, yet judged by ${cases.join(', ')}`).toBe(false);
    }
  });

  it('vary every freedom of the interface in a case, or say why not', () => {
    for (const s of STATEMENTS.filter((x) => x.kind === 'freedom'))
      expect((judged.get(s.id) ?? []).length > 0 || s.gap !== undefined, s.id).toBe(true);
  });

  it('quote PROTOCOL.md word for word, so that the contract and the map cannot drift apart', () => {
    const doc = squash(readFileSync(join(pkgDir, 'PROTOCOL.md'), 'utf8'));
    for (const s of STATEMENTS.filter((x) => x.source === 'protocol')) expect(doc, s.id).toContain(squash(s.where));
  });

  it('are shown in the README exactly as scripts/statements-map.mjs writes them', () => {
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    const [open, close] = ['<!-- client-map -->', '<!-- /client-map -->'];
    const section = readme.slice(readme.indexOf(open) + open.length, readme.indexOf(close));
    expect(readme.indexOf(open)).toBeGreaterThan(0);
    expect(section.trim(), 'run `node scripts/statements-map.mjs` after a build').toBe(statementsMap(STATEMENTS, CLIENT_CASES));
  });
});
