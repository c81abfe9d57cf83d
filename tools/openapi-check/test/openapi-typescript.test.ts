// openapi-typescript generates TypeScript types from the published document, and they compile:
// with the TypeScript 5 openapi-typescript itself requires, and with this repository's TypeScript 7.
// The consumer below uses them the way a merchant would, and expects errors where the types must
// refuse a value, so types that degraded to `any` would fail too.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '@pay/schema';

const validPayin = EXAMPLES.createPayin;

const require = createRequire(import.meta.url);
const documentPath = require.resolve('@pay/schema/openapi.json');
const out = join(import.meta.dirname, '..', '.reports', 'generated');
const compilers = {
  "TypeScript 5 (openapi-typescript's own)": join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc'),
  "TypeScript 7 (this repository's)": join(import.meta.dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'),
};

const consumer = `import type { components, paths } from './openapi.js';

type CreatePayin = components['schemas']['CreatePayinRequest'];
type Created = paths['/v2/merchants/payins/']['post']['responses']['200']['content']['application/json'];
type Lookup = paths['/v2/merchants/payouts/{id}']['get']['responses']['200']['content']['application/json'];

export const body: CreatePayin = ${JSON.stringify({ ...validPayin, payment: { amount: '10.50', currency: 'EUR' } }, null, 2)};

// @ts-expect-error payment is required
export const missing: CreatePayin = { ...body, payment: undefined };
// @ts-expect-error an unknown property is refused (additionalProperties: false)
export const extra: CreatePayin = { ...body, colour: 'red' };

export function describe(created: Created, lookup: Lookup): string {
  const next: string = created.next_action.url;
  // @ts-expect-error a status is a string, not a number
  const wrong: number = created.status;
  return [created.id, created.status, next, lookup.fee?.currency ?? 'no fee', wrong].join(' ');
}
`;

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  const ast = await openapiTS(new URL(`file://${documentPath}`));
  writeFileSync(join(out, 'openapi.ts'), astToString(ast));
  writeFileSync(join(out, 'consumer.ts'), consumer);
  const compilerOptions = { noEmit: true, strict: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', types: [] };
  writeFileSync(join(out, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
}, 60_000);

describe('openapi-typescript on the published document', () => {
  it.each(Object.entries(compilers))(
    'generates types that compile with %s',
    (_name, tsc) => {
      const args = ['-p', join(out, 'tsconfig.json')];
      let output = '';
      try {
        output = execFileSync(process.execPath, [tsc, ...args], { encoding: 'utf8' });
      } catch (error) {
        output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
      }
      expect(output).toBe('');
    },
    // TypeScript 5's tsc is a JavaScript program: one check takes a few seconds alone, and past a
    // minute under CI's full load on two cores.
    180_000,
  );
});
