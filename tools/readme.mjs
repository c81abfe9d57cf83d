// What the tests read out of a README: its runnable examples, what each promises to print, and the
// lines that install a package from a clone ("Use it from your project").

/** The ```js blocks of a Markdown text, in order: the examples tools/test runs. */
export function jsExamples(markdown) {
  return [...markdown.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/**
 * The JavaScript and TypeScript blocks of a Markdown text (fenced js, javascript, ts or
 * typescript), in order, each with the line its code starts on: the examples tools/test
 * type-checks. The js ones also run there; a javascript one needs what that test does not start
 * (PostgreSQL, Redis), and its package's own test runs it; a ts one is a reference (options and
 * what they default to), checked only. A block right after a line
 * `<!-- not type-checked: <why> -->` is left out, for the reason given.
 */
export function typedExamples(markdown) {
  const blocks = /^(<!-- not type-checked: [^\n]*\S[^\n]*-->\n)?```(js|javascript|ts|typescript)\n([\s\S]*?)^```$/gm;
  return [...markdown.matchAll(blocks)]
    .filter((m) => m[1] === undefined)
    .map((m) => ({ lang: m[2], code: m[3], line: markdown.slice(0, m.index + (m[1]?.length ?? 0)).split('\n').length + 1 }));
}

/** The packages a README's code imports (any fenced language), by package name: `@pay/webhook/node` counts as `@pay/webhook`. */
export function importedPackages(markdown, scope = '@pay/') {
  const code = [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n');
  const names = [...code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)]
    .map((m) => m[1] ?? m[2])
    .filter((specifier) => specifier.startsWith(scope))
    .map((specifier) => specifier.split('/').slice(0, 2).join('/'));
  return [...new Set(names)].sort();
}

/** The text under `## heading`, up to the next `## ` heading (empty when there is none). */
export function section(markdown, heading) {
  const at = markdown.search(new RegExp(`^## ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`, 'm'));
  if (at < 0) return '';
  const rest = markdown.slice(at).split('\n').slice(1).join('\n');
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

/** The `npm install` command lines in the ```sh blocks of the "Use it from your project" section. */
export function installLines(markdown) {
  return projectLines(markdown).filter((line) => line.startsWith('npm install '));
}

/** The `npm pkg set` command lines of that section: what it has a project set up before installing. */
export function setupLines(markdown) {
  return projectLines(markdown).filter((line) => line.startsWith('npm pkg set '));
}

function projectLines(markdown) {
  const text = section(markdown, 'Use it from your project');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n'));
}

/**
 * One entry per line a console.log prints: the pattern its comment promises (a trailing comment,
 * or the `// ` lines right below it, one per printed line), or null when it promises nothing.
 */
export function expectedOutput(code) {
  const lines = code.split('\n');
  const literal = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '.+');
  const pattern = (text) => new RegExp(`^${literal(text.trim())}$`);
  return lines.flatMap((line, i) => {
    if (!line.includes('console.log(')) return [];
    const trailing = line.match(/\)[;,]?\s*\/\/ (.+)$/)?.[1];
    if (trailing) return [pattern(trailing)];
    const below = [];
    for (let j = i + 1; j < lines.length && /^\s*\/\/ /.test(lines[j]); j++) below.push(pattern(lines[j].replace(/^\s*\/\/ /, '')));
    return below.length ? below : [null];
  });
}
