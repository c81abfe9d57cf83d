// Emulates an edge runtime whose Content-Security-Policy forbids code generation from strings
// (Cloudflare Workers, Vercel Edge): `new Function(...)` and `eval(...)` throw an EvalError, as
// they do there. Runs before any test file imports the package.
const refuse = (): never => {
  throw new EvalError('Code generation from strings disallowed for this context');
};
// Test files share a process (isolate: false), so this runs once per file in it: the real Function
// is the one kept by the first run, never the previous run's stand-in.
const OriginalFunction =
  ((globalThis as Record<string, unknown>)['__payRealFunction'] as FunctionConstructor | undefined) ?? globalThis.Function;
globalThis.Function = new Proxy(OriginalFunction, { construct: refuse, apply: refuse });
globalThis.eval = refuse as typeof globalThis.eval;
// Kept for the tests that compare with Ajv: Ajv itself only runs where code generation works, so
// it is built with the real Function restored for a moment (see withCodegen in helpers.ts).
(globalThis as Record<string, unknown>)['__payRealFunction'] = OriginalFunction;
