// The human, TAP and JUnit reports from a made-up run result: layout, colour, escaping.
import { describe, expect, it } from 'vitest';
import { COLOUR, PLAIN, formatHuman, progressLine, styleFor } from '../src/report/human.js';
import { xmlEscape } from '../src/report/escape.js';
import { toTap } from '../src/report/tap.js';
import type { RunResult } from '../src/types.js';

const result: RunResult = {
  suite: 'pay-signature-vectors',
  suite_version: '1.0.0',
  protocol: 1,
  vectors_dir: '/x',
  implementation: { command: 'x', hello: { protocol: 1, name: 'impl', version: '1', language: 'Go', capabilities: ['sign_request'] } },
  started_at: new Date(0).toISOString(),
  duration_ms: 5,
  restarts: 0,
  categories: [
    { category: 'sign_request_get', command: 'sign_request', total: 2, passed: 1, failed: 1, skipped: 0 },
    { category: 'verify_webhook', command: 'verify_webhook', total: 1, passed: 0, failed: 0, skipped: 1 },
  ],
  cases: [
    {
      id: 'sign_request_get/a',
      category: 'sign_request_get',
      command: 'sign_request',
      status: 'pass',
      description: '',
      flags: [],
      expected: {},
      got: {},
      duration_ms: 1,
    },
    {
      id: 'sign_request_get/b#1',
      category: 'sign_request_get',
      command: 'sign_request',
      status: 'fail',
      description: '',
      flags: [],
      expected: {},
      got: {},
      diagnosis: 'line one\nline two',
      duration_ms: 1,
    },
    {
      id: 'verify_webhook/c',
      category: 'verify_webhook',
      command: 'verify_webhook',
      status: 'skip',
      description: '',
      flags: [],
      expected: {},
      got: null,
      diagnosis: 'not declared',
      duration_ms: 0,
    },
  ],
};

describe('human report', () => {
  it('colours only a terminal, and never with NO_COLOR', () => {
    expect(styleFor({ isTTY: true }, {})).toBe(COLOUR);
    expect(styleFor({ isTTY: false }, {})).toBe(PLAIN);
    expect(styleFor({}, { FORCE_COLOR: '1' })).toBe(PLAIN);
    expect(styleFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(PLAIN);
  });
  it('has one line per category with counts, the failures, and a total', () => {
    const text = formatHuman(result, PLAIN);
    expect(text).toContain('against impl 1 (Go)');
    expect(text).toMatch(/^✗ sign_request_get {2}1 passed, 1 failed, 0 skipped$/m);
    expect(text).toMatch(/^○ verify_webhook {4}0 passed, 0 failed, 1 skipped$/m);
    expect(text).toContain('✗ sign_request_get/b#1 [fail]\n    line one\n    line two');
    expect(text).toMatch(/^FAIL 1 passed, 1 failed, 1 skipped in 5 ms$/m);
  });
  it('keeps the progress line within the terminal width', () => {
    const line = progressLine(3, 10, 'x'.repeat(300), 1, 60);
    expect(line.startsWith('\r')).toBe(true);
    expect([...line].length).toBe(60);
  });
});

describe('TAP and XML escaping', () => {
  it('writes a plan, ok / not ok, SKIP and YAML diagnostics; escapes # in names', () => {
    const tap = toTap(result).split('\n');
    expect(tap.slice(0, 4)).toEqual(['TAP version 13', '1..3', 'ok 1 - sign_request_get/a', 'not ok 2 - sign_request_get/b\\#1']);
    expect(tap).toContain('  message: "line one\\nline two"');
    expect(tap).toContain('ok 3 - verify_webhook/c # SKIP not declared');
  });
  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlEscape(`<a href="x">&'\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;\uFFFD');
  });
});
