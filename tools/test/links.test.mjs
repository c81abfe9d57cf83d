// Every relative link in every Markdown file resolves: inside a clone of the repository, and
// inside each package as packed for publishing (what `npm install` puts on a user's disk). No
// file of the repository refers to documents that live outside it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, readTarball } from '../pack.mjs';
import { publicPackages, root } from '../workspace.mjs';

/**
 * The link targets of a Markdown text: inline links and images `[text](target "title")`,
 * reference definitions `[label]: target`, and `href`/`src` attributes of inline HTML. Fenced code
 * blocks and code spans are not Markdown, so links shown there are not followed.
 */
export function linkTargets(markdown) {
  const prose = markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  const targets = [];
  for (const m of prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(m[1]);
  for (const m of prose.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)) targets.push(m[1]);
  return targets;
}

/** A link that points into the same tree (not a URL with a scheme, not a bare #anchor). */
const isRelative = (target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');
/** The path part of a relative link: no #anchor or ?query, percent-decoded. */
const pathOf = (target) => decodeURIComponent(target.replace(/[#?].*$/, ''));

const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);
const markdown = tracked.filter((file) => file.endsWith('.md'));

describe('links in a clone', () => {
  it('the extractor finds links in prose and skips code', () => {
    const text = [
      'See [the protocol](PROTOCOL.md#hello) and ![img](a/b.png "t").',
      '[ref]: ../docs/design.md',
      '<a href="x.md">x</a> and `[not](a-link.md)`',
      '```md',
      '[nor](this.md)',
      '```',
    ].join('\n');
    expect(linkTargets(text)).toEqual(['PROTOCOL.md#hello', 'a/b.png', '../docs/design.md', 'x.md']);
  });

  it('there are Markdown files to check, and they have links', () => {
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'conformance/README.md', 'conformance/PROTOCOL.md', 'docs/design.md']));
    expect(markdown.flatMap((f) => linkTargets(readFileSync(join(root, f), 'utf8'))).filter(isRelative).length).toBeGreaterThan(10);
  });

  it.each(markdown)('%s: every relative link resolves to a file inside the repository', (file) => {
    const broken = [];
    for (const target of linkTargets(readFileSync(join(root, file), 'utf8')).filter(isRelative)) {
      const path = pathOf(target);
      if (path === '') continue;
      const absolute = path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path);
      const inside = relative(root, absolute);
      if (inside.startsWith('..') || inside.split(sep)[0] === '..') broken.push(`${target} (leaves the repository)`);
      else if (!existsSync(absolute)) broken.push(`${target} (no such file)`);
    }
    expect(broken).toEqual([]);
  });

  it('no tracked file refers to documents outside the repository', () => {
    // Spelled in pieces so that this file does not match itself.
    const outside = new RegExp(['\\.\\./shared/', '/work/' + 'shared'].join('|'));
    const offenders = tracked.filter((file) => {
      if (file === 'pnpm-lock.yaml' || !existsSync(join(root, file))) return false;
      return outside.test(readFileSync(join(root, file), 'utf8'));
    });
    expect(offenders).toEqual([]);
  });
});

describe('links in the packed packages', () => {
  const dest = mkdtempSync(join(tmpdir(), 'pay-links-'));
  const tarballs = new Map();
  beforeAll(() => {
    for (const { name, tarball } of packAll(dest)) tarballs.set(name, tarball);
  }, 120_000); // packs every package with pnpm: slow on a loaded machine
  afterAll(() => rmSync(dest, { recursive: true, force: true }));

  it.each(publicPackages().map((p) => p.name))('%s: every relative link in its Markdown resolves inside the package', (name) => {
    const entries = readTarball(tarballs.get(name));
    const paths = new Set(entries.map((e) => e.path));
    const isFileOrDir = (path) => paths.has(path) || [...paths].some((p) => p.startsWith(`${path}/`));
    const docs = entries.filter((e) => e.path.endsWith('.md'));
    expect(docs.map((d) => d.path)).toContain('package/README.md');
    const broken = [];
    for (const doc of docs) {
      for (const target of linkTargets(doc.body.toString('utf8')).filter(isRelative)) {
        const path = pathOf(target);
        if (path === '') continue;
        const resolved = posix.normalize(posix.join(posix.dirname(doc.path), path)).replace(/\/$/, '');
        if (!resolved.startsWith('package/') || !isFileOrDir(resolved)) broken.push(`${doc.path.slice(8)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
