#!/usr/bin/env node
// Writes the OpenAPI 3.1 document of the interface and one JSON Schema per body into dist/, from
// the built schemas (run after `tsc`; `pnpm build` does both). The documents are made by pure
// functions of the package; this script is the only place that touches the file system.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonSchemas, openApiDocument } from '../dist/index.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const write = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

write(join(dist, 'openapi.json'), openApiDocument());
const dir = join(dist, 'json-schema');
mkdirSync(dir, { recursive: true });
const schemas = jsonSchemas();
for (const [name, schema] of Object.entries(schemas)) write(join(dir, `${name}.json`), schema);
console.log(`wrote dist/openapi.json and ${Object.keys(schemas).length} files in dist/json-schema/`);
