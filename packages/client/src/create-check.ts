// A create's body checked by the client's rules, before anything leaves: the interface's schema,
// the one thing accepted beyond it (a plain-http webhook_url on a host listed in allowHttpHosts,
// as the sandbox accepts it when told), a reference_id that is well-formed Unicode (it goes into
// the URL a lost create is looked up by, and a lone surrogate has no UTF-8), and a body that can
// be written as JSON. The one home of these rules: `create` runs it before sending, and `check`
// (what the journal's enqueue calls) before a create is kept to be sent later.
import { newReferenceId, validate, type ValidationError } from '@pay/schema';
import { type Operation, InvalidRequestError } from './errors.js';
import { bodyJson } from './json.js';
import { httpWebhookAllowed } from './options.js';

/** The schema a create's body is checked against. */
export type CreateSchema = Parameters<typeof validate>[0];

/** A create's body as it will be sent: its reference_id filled in, and its JSON text. */
export interface CheckedCreate {
  readonly full: Record<string, unknown>;
  readonly referenceId: string;
  readonly json: string;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Checks a create's `body` against `schema` and the client's own rules, filling in a new
 * reference_id when it has none. Throws the InvalidRequestError of `operation` that names every
 * field refused; nothing is sent or kept by then.
 */
export function checkCreate(operation: Operation, body: unknown, schema: CreateSchema, allowHttpHosts: ReadonlySet<string>): CheckedCreate {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidRequestError(operation, [{ path: '', message: 'must be an object (the request body)' }]);
  }
  const given = (body as { reference_id?: unknown }).reference_id;
  const referenceId = given === undefined ? newReferenceId() : given;
  const full: Record<string, unknown> = { reference_id: referenceId, ...body };
  full['reference_id'] = referenceId;
  const errors: ValidationError[] = [];
  const result = validate(schema, full);
  if (!result.ok)
    errors.push(...result.errors.filter((e) => !(e.path === 'webhook_url' && httpWebhookAllowed(full['webhook_url'], allowHttpHosts))));
  if (typeof referenceId === 'string' && LONE_SURROGATE.test(referenceId)) {
    errors.push({ path: 'reference_id', message: 'must be well-formed Unicode (it contains a lone surrogate)' });
  }
  if (errors.length > 0) throw new InvalidRequestError(operation, errors);
  try {
    return { full, referenceId: referenceId as string, json: bodyJson(full) };
  } catch (error) {
    throw new InvalidRequestError(operation, [{ path: '', message: `cannot be written as JSON: ${(error as Error).message}` }]);
  }
}
