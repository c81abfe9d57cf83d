// What the sandbox shows of what it was sent: logs, the delivery log, the request log and pages
// show URLs and bodies, never the credentials or card data in them.

// Query parameters that carry a credential, by name; and any value long enough to be a token.
const SECRET_PARAM = /token|secret|key|sig|auth|pass|pwd|session|code|credential|hmac|jwt/i;
const TOKEN_LENGTH = 16;

/**
 * A URL as the sandbox shows it (logs, the delivery log, pages): credentials replaced, and the
 * value of every query parameter that carries a token (by its name, such as `token` or `key`, or
 * by being 16 characters or longer). Short ordinary values (`?shop=42`) stay readable.
 */
export function redactUrl(url: string): string {
  const withoutCredentials = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
  return withoutCredentials.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, name: string, value: string) =>
    SECRET_PARAM.test(name) || value.length >= TOKEN_LENGTH ? `${sep}${name}=***` : whole,
  );
}

/** Every http(s) URL in a text, redacted as {@link redactUrl} does. */
export function redactUrlsIn(text: string): string {
  // Credentials need an `@` and a query value an `=`: a text with neither has nothing to hide.
  if (!text.includes('@') && !text.includes('=')) return text;
  return text.replace(/https?:\/\/[^\s"'<>\\]+/gi, redactUrl);
}
