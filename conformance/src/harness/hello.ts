// The protocol's first exchange: the hello answer checked, so that the runner knows the child
// speaks its protocol and which commands it declares.
import type { Outcome } from './child.js';
import { describeOutcome } from './outcome.js';
import { PROTOCOL_VERSION, type Hello } from '../types.js';

/** The request that opens every child's conversation. */
export const HELLO = { cmd: 'hello', protocol: PROTOCOL_VERSION } as const;

/** Checks a hello answer; returns the reason it is unusable, or the hello. */
export function parseHello(o: Outcome): Hello | string {
  if (o.kind !== 'answer') return describeOutcome(o);
  const v = o.value;
  if (v['protocol'] !== PROTOCOL_VERSION) {
    return `the hello answer names protocol ${JSON.stringify(v['protocol'])}; this runner speaks ${PROTOCOL_VERSION}`;
  }
  const caps = v['capabilities'];
  if (!Array.isArray(caps) || !caps.every((c) => typeof c === 'string')) {
    return 'the hello answer has no "capabilities" array of strings';
  }
  const text = (k: string): string => (typeof v[k] === 'string' ? (v[k] as string) : '?');
  return {
    ...v,
    protocol: PROTOCOL_VERSION,
    name: text('name'),
    version: text('version'),
    language: text('language'),
    capabilities: caps as string[],
  };
}
