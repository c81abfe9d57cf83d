// The bodies `pay-sandbox payin create` and `payout create` send: valid by default (every required
// field of @pay/schema's CreatePayinRequest and CreatePayoutRequest, with plausible values), and
// changed field by field at dotted paths (`customer.address.city`), so a person can send exactly the
// body they want to see the sandbox accept or refuse. The examples come from their own subpath:
// a command loads none of the validators.
import { EXAMPLES } from '@pay/schema/examples';

/** A JSON object being built. */
export type Body = Record<string, unknown>;

/** Where webhooks go unless told: the discard port, where nothing listens (the delivery log shows the attempts). */
export const DEFAULT_WEBHOOK_URL = 'http://127.0.0.1:9/webhooks';

/** A valid create-payin (v2) body: @pay/schema's example (a customer in Toronto, the hosted page). */
export function defaultPayinBody(): Body {
  return {
    ...structuredClone(EXAMPLES.createPayin),
    browser_data: { user_agent: 'pay-sandbox command line', ip_address: '203.0.113.7' },
    webhook_url: DEFAULT_WEBHOOK_URL,
  };
}

/** A valid create-payout body: @pay/schema's example (no redirect URLs: they are optional). */
export function defaultPayoutBody(): Body {
  return { ...structuredClone(EXAMPLES.createPayout), webhook_url: DEFAULT_WEBHOOK_URL };
}

/** The segments of a dotted path. @throws TypeError for an empty path or segment. */
function segments(path: string): string[] {
  const parts = path.split('.');
  if (parts.some((p) => p === ''))
    throw new TypeError(
      `${path === '' ? 'the path is empty' : `path ${path} has an empty segment`}: write the path dotted, such as customer.email`,
    );
  return parts;
}

const isObject = (value: unknown): value is Body => value !== null && typeof value === 'object' && !Array.isArray(value);
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

// Own properties only, written with defineProperty: a segment named __proto__ is then a key of the
// body like any other (sent as such, for the sandbox to refuse), never the object's prototype.
const own = (object: Body, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);
const put = (object: Body, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

/**
 * Sets the field at a dotted path, creating the objects on the way.
 *
 * @throws TypeError naming the path when a field on the way is not an object.
 */
export function setPath(body: Body, path: string, value: unknown): void {
  const parts = segments(path);
  let current = body;
  for (const [i, key] of parts.slice(0, -1).entries()) {
    let next = own(current, key);
    if (next === undefined) put(current, key, (next = {}));
    if (!isObject(next)) throw new TypeError(`${parts.slice(0, i + 1).join('.')} is ${kindOf(next)}, so ${path} cannot be set`);
    current = next;
  }
  put(current, parts.at(-1)!, value);
}

/** Removes the field at a dotted path. @throws TypeError naming the path when there is no such field. */
export function unsetPath(body: Body, path: string): void {
  const parts = segments(path);
  let current: unknown = body;
  for (const key of parts.slice(0, -1)) current = isObject(current) ? own(current, key) : undefined;
  if (!isObject(current) || !Object.hasOwn(current, parts.at(-1)!)) throw new TypeError(`the body has no field ${path} to remove`);
  delete current[parts.at(-1)!];
}
