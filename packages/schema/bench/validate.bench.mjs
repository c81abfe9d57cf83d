#!/usr/bin/env node
// Validation throughput of a valid, an invalid and a hostile create-payin body: @pay/schema against
// Ajv compiling the very JSON Schema this package exports (dist/json-schema/CreatePayinRequest.json)
// and against TypeBox's own compiler (typebox/compile) on the TypeBox schema itself, in the same
// run. Run `pnpm build` first.
//
// Fairness: Ajv runs with allErrors: true, because @pay/schema always reports every error; all
// three check the same formats (ajv-formats and TypeBox's built-in date/ipv4/ipv6, this package's
// checkers for its own formats, registered with each), and Ajv runs this package's money keyword
// too (TypeBox cannot be taught a keyword: it skips that one check). Our number includes building the
// `{ ok, errors }` result with paths and messages; TypeBox's is `Errors(value)`, its one call that
// gives the errors (it runs the compiled check first and walks the schema only when that fails).
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { Compile } from 'typebox/compile';
import { Format } from 'typebox/format';
import { Settings } from 'typebox/system';
import { compare } from '../../../tools/bench.mjs';
import { CreatePayinRequest, createValidator, customFormats, customKeywords, ERROR_MESSAGE, EXAMPLES, jsonSchemas } from '../dist/index.js';

const valid = { ...structuredClone(EXAMPLES.createPayin), reference_id: 'order-1001', method: 'card', language: 'en' };
// Four mistakes a merchant makes: a typo'd key, a short email (also not an address: two errors), a
// wrong Canadian state, no currency.
const invalid = structuredClone(valid);
invalid.customer.frist_name = 'Jane';
invalid.customer.email = 'j@x';
invalid.customer.address.state = 'Ontario';
delete invalid.payment.currency;
// What a hostile client can send: a valid body with 10,000 unknown keys (about 150 kB of JSON).
const hostile = structuredClone(valid);
for (let i = 0; i < 10_000; i += 1) hostile[`x${i}`] = i;

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajvFormats.default(ajv);
ajv.addKeyword(ERROR_MESSAGE);
for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, check);
for (const [keyword, validate] of Object.entries(customKeywords)) ajv.addKeyword({ keyword, validate, errors: false });
const ajvValidate = ajv.compile(jsonSchemas().CreatePayinRequest);
const ajvRun = (body) => ajvValidate(body) || ajvValidate.errors.length;

// TypeBox passes a format it does not know, so this package's two are registered (process-wide).
for (const [name, check] of Object.entries(customFormats)) Format.Set(name, check);
const typebox = Compile(CreatePayinRequest);

const ours = createValidator(CreatePayinRequest);

// Sanity: all three agree before anything is timed.
for (const [kind, body, ok] of [
  ['valid', valid, true],
  ['invalid', invalid, false],
  ['hostile', hostile, false],
]) {
  if (ours.validate(body).ok !== ok || ajvValidate(body) !== ok || typebox.Check(body) !== ok) {
    throw new Error(`the ${kind} body must ${ok ? 'pass' : 'fail'} all three validators`);
  }
}
if (!typebox.IsAccelerated()) throw new Error('TypeBox must run its compiled code here');

function errorCounts(body) {
  ajvValidate(body);
  return `${ours.validate(body).errors.length} from @pay/schema, ${ajvValidate.errors.length} from Ajv, ${typebox.Errors(body).length} from TypeBox`;
}
console.log(
  `CreatePayinRequest validation, Node ${process.version}, ours ${ours.compiled ? 'compiled' : 'interpreted'}; ` +
    'Ajv 8 (2020-12) with allErrors: true, strict: true; TypeBox 1 Compile',
);
console.log(`invalid body: ${errorCounts(invalid)}`);
console.log(`hostile body: ${errorCounts(hostile)}`);

// Ajv is the baseline; each comparison runs in alternating rounds, its ratio the median.
const ratios = {};
for (const [kind, body] of [
  ['valid', valid],
  ['invalid', invalid],
  ['hostile', hostile],
]) {
  ratios[kind] = await compare(`${kind} body`, ['Ajv', () => ajvRun(body)], {
    '@pay/schema': () => ours.validate(body),
    'TypeBox Compile': () => typebox.Errors(body),
  });
}

// The paths without code generation (edge runtimes) are measured afterwards, in their own runs:
// warming the interpreter up alongside the compiled code would pollute the type feedback of the
// helpers both share, and understate the compiled numbers. Ajv has no such path: it stays the
// compiled baseline. TypeBox checks dynamically when told not to use acceleration.
const interpreted = createValidator(CreatePayinRequest, { codegen: 'never' });
Settings.Set({ useAcceleration: false });
const typeboxDynamic = Compile(CreatePayinRequest);
Settings.Set({ useAcceleration: true });
if (typeboxDynamic.IsAccelerated()) throw new Error('TypeBox must run without code generation here');
for (const [kind, body] of [
  ['valid', valid],
  ['invalid', invalid],
]) {
  await compare(`${kind} body, without code generation (strict CSP, edge runtimes)`, ['Ajv', () => ajvRun(body)], {
    '@pay/schema (interpreted)': () => interpreted.validate(body),
    'TypeBox (dynamic)': () => typeboxDynamic.Errors(body),
  });
}

console.log("\ntarget: at least Ajv's speed on the valid and the invalid body (compiled path)");
for (const [kind, r] of Object.entries(ratios)) {
  const ratio = r['@pay/schema'];
  const target = kind === 'hostile' ? 'no target' : ratio >= 1 ? 'meets the target' : 'BELOW the target';
  // Against TypeBox: the ratio of the two medians against Ajv.
  console.log(`  ${kind} body: ${ratio.toFixed(2)}x Ajv (${target}), ${(ratio / r['TypeBox Compile']).toFixed(2)}x TypeBox Compile`);
}
