// Webhook addresses whose name no resolver may be asked for. Both senders (sender-node.ts through
// webhook-target.ts, and the fetch sender) fail such an attempt before connecting. A file of its
// own, importing nothing: the fetch sender runs in any Fetch host, where node:net is not there.

// Names no resolver may be asked for (compared without a trailing dot, in lower case, as the URL
// parser writes them after decoding percent escapes and mapping full stops). `.invalid`: RFC 6761
// has resolvers answer "no such name" at once, so asking DNS only sends a query off the machine for
// an answer known beforehand. `.onion`: RFC 7686 has software that is not Tor fail it without a
// lookup, which would leak the name. `.test`, `.example` and `.localhost` are not here: RFC 6761
// lets a hosts file or a local DNS answer them, and a developer's setup may (`shop.test`).
const NEVER_RESOLVED: readonly (readonly [RegExp, string])[] = [
  [/(?:^|\.)invalid$/, 'name under .invalid never resolves (RFC 6761)'],
  [/(?:^|\.)onion$/, 'name under .onion is reached only through Tor, never looked up (RFC 7686)'],
];

/**
 * The error of an attempt to a name no resolver is asked for: `code` ERR_WEBHOOK_NAME, and
 * `problem`, the reason in words (the delivery log's error).
 */
export function unresolvableName(hostname: string): (Error & { code: string; problem: string }) | undefined {
  const lower = hostname.toLowerCase();
  const name = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  for (const [pattern, problem] of NEVER_RESOLVED) {
    if (pattern.test(name)) return Object.assign(new Error(`the webhook was not sent: ${problem}`), { code: 'ERR_WEBHOOK_NAME', problem });
  }
  return undefined;
}
