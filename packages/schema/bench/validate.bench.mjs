#!/usr/bin/env node
// Validation throughput of a valid and an invalid create-payin body: @pay/schema against Ajv
// compiling the very JSON Schema this package exports (dist/json-schema/CreatePayinRequest.json),
// in the same run. Run `pnpm build` first.
//
// Fairness: Ajv runs with allErrors: true, because @pay/schema always reports every error; both
// check the same formats (ajv-formats for date/ipv4/ipv6, this package's checkers for its two own
// formats). Our number includes building the `{ ok, errors }` result with paths and messages.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { compare } from '../../../tools/bench.mjs';
import { CreatePayinRequest, createValidator, customFormats, ERROR_MESSAGE, EXAMPLES, jsonSchemas } from '../dist/index.js';

const valid = { ...structuredClone(EXAMPLES.createPayin), reference_id: 'order-1001', method: 'card', language: 'en' };
// Four mistakes a merchant makes: a typo'd key, a short email, a wrong Canadian state, no currency.
const invalid = structuredClone(valid);
invalid.customer.frist_name = 'Jane';
invalid.customer.email = 'j@x';
invalid.customer.address.state = 'Ontario';
delete invalid.payment.currency;

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajvFormats.default(ajv);
ajv.addKeyword(ERROR_MESSAGE);
for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, check);
const ajvValidate = ajv.compile(jsonSchemas().CreatePayinRequest);

const ours = createValidator(CreatePayinRequest);

// Sanity: both agree before anything is timed.
if (!ours.validate(valid).ok || !ajvValidate(valid)) throw new Error('the valid body must pass both validators');
const oursErrors = ours.validate(invalid);
if (oursErrors.ok || ajvValidate(invalid)) throw new Error('the invalid body must fail both validators');

// Ajv is the baseline; each comparison runs in alternating rounds, its ratio the median.
const ratios = {};
console.log(
  `CreatePayinRequest validation, Node ${process.version}, ours ${ours.compiled ? 'compiled' : 'interpreted'}; Ajv 8 (2020-12) with allErrors: true, strict: true`,
);
console.log(`invalid body: ${oursErrors.errors.length} errors from @pay/schema, ${ajvValidate.errors.length} from Ajv`);
for (const [kind, body] of [
  ['valid', valid],
  ['invalid', invalid],
]) {
  const r = await compare(`${kind} body`, ['Ajv', () => ajvValidate(body) || ajvValidate.errors.length], {
    '@pay/schema': () => ours.validate(body),
  });
  ratios[kind] = r['@pay/schema'];
}

// The interpreted path (edge runtimes) is measured afterwards, in its own runs: warming it up
// alongside the compiled code would pollute the type feedback of the helpers both share, and
// understate the compiled numbers that the Ajv ratio is about.
const interpreted = createValidator(CreatePayinRequest, { codegen: 'never' });
for (const [kind, body] of [
  ['valid', valid],
  ['invalid', invalid],
]) {
  await compare(
    `${kind} body, interpreted path (runtimes without code generation)`,
    ['Ajv', () => ajvValidate(body) || ajvValidate.errors.length],
    {
      '@pay/schema (interpreted)': () => interpreted.validate(body),
    },
  );
}

console.log("\ntarget: at least Ajv's speed (compiled path)");
for (const [kind, ratio] of Object.entries(ratios)) {
  console.log(`  ${kind} body: ${ratio.toFixed(2)}x Ajv ${ratio >= 1 ? 'meets' : 'BELOW'} the target`);
}
