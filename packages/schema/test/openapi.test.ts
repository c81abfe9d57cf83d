// The OpenAPI document and the JSON Schema files: valid, complete, and generated from the schemas.
import { Validator } from '@seriousme/openapi-schema-validator';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreatePayinRequest, CURRENCY_CODES, jsonSchemas, openApiDocument, SCHEMA_NAMES } from '../src/index.js';
import { withCodegen, withCodegenAsync } from './helpers.js';

type Doc = {
  paths: Record<string, Record<string, { requestBody?: unknown; security?: unknown; parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { name: string; in: string }> };
  webhooks: Record<string, unknown>;
  security: unknown;
};

describe('the published files (dist/, written by `pnpm --filter @pay/schema openapi`)', () => {
  const dist = join(import.meta.dirname, '..', 'dist');

  it('dist/openapi.json is the document, and a valid OpenAPI 3.1 one', async () => {
    const file = JSON.parse(readFileSync(join(dist, 'openapi.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const validator = withCodegen(() => new Validator());
    const result = await withCodegenAsync(() => validator.validate(file));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('dist/json-schema/ has one file per body, equal to jsonSchemas()', () => {
    const schemas = JSON.parse(JSON.stringify(jsonSchemas())) as Record<string, unknown>;
    expect(readdirSync(join(dist, 'json-schema')).sort()).toEqual(
      Object.keys(schemas)
        .map((n) => `${n}.json`)
        .sort(),
    );
    for (const [name, schema] of Object.entries(schemas)) {
      expect(JSON.parse(readFileSync(join(dist, 'json-schema', `${name}.json`), 'utf8'))).toEqual(schema);
    }
  });
});

describe('OpenAPI document', () => {
  const document = openApiDocument() as unknown as Doc;

  it('is a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator)', async () => {
    const validator = withCodegen(() => new Validator());
    const result = await withCodegenAsync(() => validator.validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes all eight endpoints', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => k !== 'servers')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'POST /v2/merchants/payins/',
        'GET /v2/merchants/payins/',
        'GET /v2/merchants/payins/{id}',
        'POST /v2/merchants/payouts/',
        'GET /v2/merchants/payouts/',
        'GET /v2/merchants/payouts/{id}',
        'POST /v1/merchants/payins/',
        'POST /v1/push/{token}/',
      ].sort(),
    );
    expect(document.paths['/v2/merchants/payins/']?.['get']?.parameters).toContainEqual(
      expect.objectContaining({ name: 'reference_id', in: 'query', required: true }),
    );
  });

  it('signs with x-merchant-id, x-timestamp and x-signature combined, and the card push with x-simplified-signature', () => {
    const schemes = document.components.securitySchemes;
    expect(
      Object.values(schemes)
        .map((s) => `${s.in}:${s.name}`)
        .sort(),
    ).toEqual(['header:x-merchant-id', 'header:x-signature', 'header:x-simplified-signature', 'header:x-timestamp'].sort());
    expect(document.security).toEqual([{ merchantId: [], timestamp: [], signature: [] }]);
    expect(document.paths['/v1/push/{token}/']?.['post']?.security).toEqual([{ merchantId: [], timestamp: [], simplifiedSignature: [] }]);
    expect(document.paths['/v1/push/{token}/']?.['servers']).toBeDefined();
  });

  it('describes every format and x- keyword its schemas use, and lists the currencies requests take', () => {
    const used = new Set<string>();
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'format' && typeof value === 'string') used.add(`format: ${value}`);
        if (key.startsWith('x-')) used.add(key);
        walk(value);
      }
    };
    walk(document.components.schemas);
    expect([...used].sort()).toEqual([
      'format: date',
      'format: ipv4',
      'format: ipv6',
      'format: pay-email',
      'format: pay-luhn',
      'format: pay-not-in-future',
      'x-error-message',
      'x-pay-money',
    ]);
    const description = (document as unknown as { info: { description: string } }).info.description;
    for (const name of used) expect(description, name).toContain(name);
    const money = document.components.schemas['Money'] as { properties: { currency: { enum: string[] } } };
    expect(money.properties.currency.enum).toEqual([...CURRENCY_CODES]);
  });

  it('carries the webhook and the schemas of this package unchanged', () => {
    expect(Object.keys(document.webhooks)).toEqual(['transactionStatusChanged']);
    expect(document.components.schemas['CreatePayinRequest']).toEqual(JSON.parse(JSON.stringify(CreatePayinRequest)));
  });
});

describe('JSON Schema files', () => {
  it('one 2020-12 document per body', () => {
    const schemas = jsonSchemas();
    expect(Object.keys(schemas)).toEqual([...SCHEMA_NAMES]);
    for (const name of [
      'CreatePayinRequest',
      'CreatePayinRequestV1',
      'CreatePayoutRequest',
      'CardPushRequest',
      'PayinCreateResponse',
      'PayinLookupResponse',
      'PayoutCreateResponse',
      'PayoutLookupResponse',
      'WebhookPayload',
      'Money',
      'NextAction',
    ] as const) {
      expect(schemas[name]).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: name });
    }
  });
});
