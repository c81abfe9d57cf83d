// What the shop reads from a request besides its route: form fields, the customer's address, and
// the fresh references its orders are sent under.
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/** A form field as one trimmed string (a repeated field takes its last value), capped. */
export function field(form: Record<string, unknown>, name: string): string {
  let value = form[name];
  if (Array.isArray(value)) value = value[value.length - 1];
  return typeof value === 'string' ? value.trim().slice(0, 300) : '';
}

/** The customer's IP address as the Node server saw it (IPv4-mapped IPv6 written as IPv4). */
export function customerIp(c: Context<{ Bindings: HttpBindings }>): string | undefined {
  const address = c.env?.incoming?.socket?.remoteAddress;
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * A fresh order reference, sent as `reference_id`: random, never a counter. A counter restarts
 * with the process while the service remembers every reference, and @pay/client treats a
 * reference the service already has as the same create (its exactly-once rule): a reused
 * reference would be matched to an old payment.
 */
export const newReference = (prefix: string) => `${prefix}-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
