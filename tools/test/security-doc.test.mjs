// docs/security.md is a threat model with a cell for every trust boundary and every channel. Each
// cell names what is promised and the test that proves it, or says it is a gap, or why nothing
// crosses there. This keeps the page honest: a cell left out, a test file that is gone, or a test
// title that no longer appears in its file fails here.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../workspace.mjs';

const page = readFileSync(join(root, 'docs/security.md'), 'utf8');

/** The items of the bulleted list under `## heading`: the bold name of each. */
function axis(heading) {
  const section = page.split(/^## /m).find((s) => s.startsWith(heading));
  if (section === undefined) throw new Error(`docs/security.md has no "## ${heading}" section`);
  return [...section.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
}

/** The sections `### <boundary>` under `## The cells`, each with its table rows as cells. */
function cells() {
  const part = page.split(/^## /m).find((s) => s.startsWith('The cells'));
  if (part === undefined) throw new Error('docs/security.md has no "## The cells" section');
  const sections = new Map();
  for (const block of part.split(/^### /m).slice(1)) {
    const boundary = block.slice(0, block.indexOf('\n')).trim();
    const rows = block
      .split('\n')
      .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
      .slice(1) // the header row
      .map((line) => {
        const [channel, promise, proof] = line.slice(1, -1).split(' | ');
        return { channel: channel?.trim(), promise: promise?.trim(), proof: proof?.trim() };
      });
    sections.set(boundary, rows);
  }
  return sections;
}

/** The proofs a cell cites: `path` › "a literal part of a test's title", any number of them. */
function citations(proof) {
  return [...proof.matchAll(/`([^`]+\.(?:test\.(?:ts|mjs)|py))` › "([^"]+)"/g)].map((m) => ({ file: m[1], title: m[2] }));
}

const boundaries = axis('Trust boundaries');
const channels = axis('Channels');
const table = cells();

describe('docs/security.md', () => {
  it('names the boundaries and the channels the review asked for', () => {
    expect(boundaries.length).toBeGreaterThanOrEqual(6);
    expect(channels.length).toBeGreaterThanOrEqual(7);
    expect([...table.keys()]).toEqual(boundaries);
  });

  it.each(boundaries)('%s: one row for every channel, each with a promise and a proof, a gap or a reason', (boundary) => {
    const rows = table.get(boundary) ?? [];
    expect(rows.map((r) => r.channel)).toEqual(channels);
    for (const row of rows) {
      expect(row.promise, `${boundary} × ${row.channel}`).toBeTruthy();
      const proven = citations(row.proof ?? '').length > 0;
      const gap = /\*\*gap\*\*/.test(row.proof ?? '');
      const none = /^— /.test(row.proof ?? '');
      expect(proven || gap || none, `${boundary} × ${row.channel}: cite a test, or say "**gap**", or "— why nothing crosses"`).toBe(true);
    }
  });

  it('every cited test exists: the file, and the title (or a literal part of it) in that file', () => {
    const missing = [];
    let cited = 0;
    for (const [boundary, rows] of table) {
      for (const row of rows) {
        for (const { file, title } of citations(row.proof ?? '')) {
          cited += 1;
          const path = join(root, file);
          if (!existsSync(path)) missing.push(`${boundary} × ${row.channel}: no file ${file}`);
          else if (!readFileSync(path, 'utf8').includes(title)) missing.push(`${boundary} × ${row.channel}: "${title}" is not in ${file}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(cited).toBeGreaterThan(40);
  });

  it('the checker reads a table as written, and a stale citation fails it', () => {
    expect(citations('`packages/sign/test/sign.test.ts` › "a" and `conformance/adapters/python/x.py` › "b"')).toEqual([
      { file: 'packages/sign/test/sign.test.ts', title: 'a' },
      { file: 'conformance/adapters/python/x.py', title: 'b' },
    ]);
    const source = readFileSync(join(root, 'tools/test/security-doc.test.mjs'), 'utf8');
    expect(source.includes('a title that no test has, anywhere')).toBe(true); // this line, not a test title
    expect(readFileSync(join(root, 'packages/sign/test/sign.test.ts'), 'utf8').includes('a title that no test has, anywhere')).toBe(false);
  });
});
