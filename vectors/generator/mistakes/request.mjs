// The mistakes a signer makes in x-signature, as data. Each builder returns the key and the parts
// of the string to sign that the mistaken signer would feed to HMAC, or null when the mistake does
// not apply to the input. A mistake is listed in a vector only when it changes the signature.
import { latin1, bodyAsText, splitQuery, utf8 } from '../bytes.mjs';

/** sign_request mistakes, in the README's order. */
export const REQUEST_MISTAKES = [
  {
    name: 'url_trailing_slash_dropped',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (!path.endsWith('/')) return null;
      const url = path.slice(0, -1) + query;
      return { key, parts: { ...parts, url }, description: `signed the URL without its trailing slash: ${url}` };
    },
  },
  {
    name: 'url_trailing_slash_added',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (path.endsWith('/')) return null;
      const url = `${path}/${query}`;
      return { key, parts: { ...parts, url }, description: `signed the URL with a trailing slash added: ${url}` };
    },
  },
  {
    name: 'url_path_only',
    make({ parts, key }) {
      const url = parts.url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
      return { key, parts: { ...parts, url }, description: `signed the path without scheme and host: ${url}` };
    },
  },
  {
    name: 'url_query_dropped',
    make({ parts, key }) {
      const { path, query } = splitQuery(parts.url);
      if (query === '') return null;
      return { key, parts: { ...parts, url: path }, description: `signed the URL without its query string: ${path}` };
    },
  },
  {
    name: 'body_reserialised',
    make({ parts, key, input }) {
      if (input.method === 'GET') return null;
      const text = bodyAsText(parts.body);
      if (text === null) return null;
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        return null; // not JSON: nothing a JSON middleware would re-serialise
      }
      const body = utf8(JSON.stringify(parsed));
      return {
        key,
        parts: { ...parts, body },
        description: `signed the body after JSON.parse and JSON.stringify (${body.length} bytes) instead of the ${parts.body.length} bytes sent`,
      };
    },
  },
  {
    name: 'body_signed_for_get',
    make({ parts, key, input }) {
      const given = Buffer.from(input.body_b64, 'base64');
      if (input.method !== 'GET' || given.length === 0) return null;
      return {
        key,
        parts: { ...parts, body: given },
        description: `a GET signed the ${given.length}-byte body it was given; a GET signs an empty body`,
      };
    },
  },
  {
    name: 'method_lowercased',
    make({ parts, key }) {
      const method = parts.method.toLowerCase();
      return { key, parts: { ...parts, method }, description: `signed the method as "${method}" instead of "${parts.method}"` };
    },
  },
  {
    name: 'secret_latin1',
    make({ parts, input }) {
      return {
        key: latin1(input.secret),
        parts,
        description: `encoded the secret as Latin-1 (low byte of each UTF-16 unit: ${latin1(input.secret).toString('hex')}) instead of UTF-8`,
      };
    },
  },
  {
    name: 'body_latin1',
    make({ parts, key, input }) {
      if (input.method === 'GET') return null;
      const text = bodyAsText(parts.body);
      if (text === null) return null;
      return {
        key,
        parts: { ...parts, body: latin1(text) },
        description: 'decoded the body as UTF-8 and signed it encoded as Latin-1 (low byte of each UTF-16 unit)',
      };
    },
  },
];
