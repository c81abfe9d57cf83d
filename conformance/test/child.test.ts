// The child process layer on its own: --impl split into words as a shell would, and one child
// kept, framed, timed and killed as the runner needs.
import { describe, expect, it } from 'vitest';
import { Child } from '../src/harness/child.js';
import { splitCommandLine } from '../src/harness/command-line.js';

describe('splitCommandLine', () => {
  it('splits plain words on any whitespace', () => {
    expect(splitCommandLine('  python3   adapter.py\t--x  ')).toEqual(['python3', 'adapter.py', '--x']);
  });
  it('keeps quoted arguments whole, with escapes in double quotes only', () => {
    expect(splitCommandLine(`node "my dir/a.js" 'it''s' "say \\"hi\\"" a\\ b ''`)).toEqual([
      'node',
      'my dir/a.js',
      'its',
      'say "hi"',
      'a b',
      '',
    ]);
    expect(splitCommandLine(`x 'a\\b' "c\\d"`)).toEqual(['x', 'a\\b', 'c\\d']);
  });
  it('refuses unterminated quotes and empty lines', () => {
    expect(() => splitCommandLine(`node "abc`)).toThrow(/unterminated/);
    expect(() => splitCommandLine(`node 'abc`)).toThrow(/unterminated/);
    expect(() => splitCommandLine('   ')).toThrow(/empty/);
  });
});

describe('Child', () => {
  const script = (body: string) => [process.execPath, '-e', body];

  it('frames answers split across chunks and several per chunk', async () => {
    const c = new Child({
      argv: script(
        `process.stdin.on('data', () => { process.stdout.write('{"a"'); setTimeout(() => process.stdout.write(':1}\\n'), 20); });`,
      ),
    });
    await c.start();
    const out = await c.request({ cmd: 'x' }, 2000);
    expect(out).toMatchObject({ kind: 'answer', value: { a: 1 } });
    await c.close(200);
  });

  it('reports a timeout; probing then kills the child', async () => {
    const c = new Child({ argv: script(`process.stdin.resume(); setInterval(() => {}, 1000);`) });
    await c.start();
    expect(await c.request({}, 150)).toEqual({ kind: 'timeout', ms: 150 });
    expect(await c.probeBuffered(200)).toEqual([]);
    expect(c.dead).toBe(true);
    expect(c.written.stdout).toBe(0);
    await c.close(200);
  });

  it('probing a child that holds its answers until its input ends gets them', async () => {
    // Answers kept in memory and written only at the end of stdin: a child that never flushes.
    const c = new Child({
      argv: script(
        `const held = []; process.stdin.on('data', () => held.push('{"late":true}')); process.stdin.on('end', () => { process.stdout.write(held.join('\\n') + '\\n'); });`,
      ),
    });
    await c.start();
    expect(await c.request({ cmd: 'hello' }, 150)).toEqual({ kind: 'timeout', ms: 150 });
    expect(await c.probeBuffered(5000)).toEqual(['{"late":true}']);
    expect(c.exitedOnItsOwn).toEqual({ code: 0, signal: null });
  });

  it('reports a crash with its exit code and keeps stderr, bounded', async () => {
    const c = new Child({
      argv: script(`process.stdin.on('data', () => { process.stderr.write('x'.repeat(10000) + 'boom'); process.exit(3); });`),
      stderrLimit: 2048,
    });
    await c.start();
    const mark = c.stderrMark();
    expect(await c.request({}, 2000)).toEqual({ kind: 'crash', code: 3, signal: null });
    const err = c.stderrSince(mark, 100);
    expect(err.endsWith('boom')).toBe(true);
    expect(err.length).toBeLessThanOrEqual(101);
  });

  it('calls a line that is not one JSON object bad output', async () => {
    const c = new Child({ argv: script(`process.stdin.on('data', () => process.stdout.write('[1,2]\\n'));`) });
    await c.start();
    expect(await c.request({}, 2000)).toMatchObject({ kind: 'bad_output', why: 'not a JSON object' });
    await c.close(200);
  });

  it('refuses to start a command that does not exist', async () => {
    const c = new Child({ argv: ['/nonexistent/definitely-not-here'] });
    await expect(c.start()).rejects.toThrow(/cannot start/);
  });
});
