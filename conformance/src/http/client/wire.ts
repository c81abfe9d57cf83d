// Every request an SDK put on the wire, judged with the runner's own signing code (signing.ts):
// the URL it called is the interface's, exactly; the signature covers that URL and the bytes sent;
// the body is the value it was asked to send. A signature that does not match is matched against
// the mistakes SDKs make (a trailing slash dropped after signing, a query encoded differently from
// the one signed, a body serialised again, the path alone signed) and named in the SDK's terms.
import { bodyProblem, referenceIn } from './body.js';
import type { Exchange } from './proxy.js';
import { queryProblem, targets, type Resource } from './routes.js';
import { SERIALISERS, parseJsonBytes, serialise } from '../../harness/serialisers.js';
import { signedInstead, simplifiedSignedInstead, type SignedInstead } from '@pay/sign';
import { hmacHex, simplifiedHeaders, stringToSign, type Signer } from '../../signing.js';
import { rawFindings } from './raw.js';
import { BASE_PATH } from './proxy.js';
import type { Sensitive } from '../redact.js';
import { toggleSlash } from '../url-variants.js';
import { offsetMinutes, offsetText, spanText } from './zone.js';
import type { Finding } from './finding.js';

/** What one operation may call, and what it must send. */
export interface Operation {
  resource: Resource;
  /** a create: its version and the params given */
  create?: { version: 'v1' | 'v2'; params: Record<string, unknown> };
  /** the reference_id of the create, or of the lookup by reference */
  reference?: string;
  /** the id of a lookup by id */
  id?: string;
  /** a card push: the target of the address given, the payin and card pushed */
  push?: { target: string; payinId: string; card: Record<string, string> };
}

/**
 * What judging needs besides the request (which holds the URL it called): the merchant, the
 * tolerance, the child's time zone, and what must never be sent.
 */
export interface WireContext {
  me: Signer;
  toleranceSeconds: number;
  /** the TZ the child runs in */
  zone: string;
  /** the secret and the card number, in every encoding the runner masks: never in a header */
  sensitive: readonly Sensitive[];
}

/** Every finding on every request of a case, each (mistake, text) once. */
export function judgeWire(log: readonly Exchange[], op: Operation, ctx: WireContext): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const [i, ex] of log.entries()) {
    for (const f of judgeRequest(ex, log.slice(0, i), op, ctx)) {
      const key = `${f.mistake}\n${f.text}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(f);
      }
    }
  }
  return out;
}

/** A request as the SDK sent it: its method and the full URL it called. */
const said = (ex: Exchange) => `${ex.method} ${calledUrl(ex)}`;
/** The URL a request called: the origin of the listener it reached, and its target as sent. */
const calledUrl = (ex: Exchange) => `${ex.origin}${ex.rawTarget}`;

/** The wire's own level first (raw header lines, bytes, where it was sent): what it means after. */
function judgeRequest(ex: Exchange, earlier: readonly Exchange[], op: Operation, ctx: WireContext): Finding[] {
  const raw = rawFindings(ex, ctx.sensitive);
  // Refused by the parser, sent outside the base path or in clear text to TLS: the service never read it further.
  if (ex.refused !== undefined || ex.action === 'outside_base' || ex.action === 'plaintext_on_tls') return raw;
  return [...raw, ...meaningFindings(ex, earlier, op, ctx)];
}

function meaningFindings(ex: Exchange, earlier: readonly Exchange[], op: Operation, ctx: WireContext): Finding[] {
  const r = ex.route;
  if (r.kind === 'trap') {
    return [
      {
        mistake: 'redirect_followed',
        text: `followed a redirect: it called ${said(ex)}, the address of a redirect the service answered`,
      },
    ];
  }
  if (ex.action === 'refuse') {
    return [
      {
        mistake: 'wrong_url',
        text: `called ${ex.method} ${ex.target}, which is no address of the interface (the runner's proxy refused it)`,
      },
    ];
  }
  const where = whereProblem(ex, op);
  // A request to the wrong place: that, and what its signature says it meant to call (a slash
  // dropped after signing, say); its body is not judged against an operation it does not belong to.
  if (where) return [where, ...signatureFindings(ex, earlier, ctx)].slice(0, 2);
  // A body cut short explains its signature and its body: that alone is said.
  const cut = cutShort(ex, op);
  if (cut) return [cut];
  return [...signatureFindings(ex, earlier, ctx), ...bodyFindings(ex, op)];
}

/**
 * Whether a POST's body stops in the middle of its JSON although all of its Content-Length
 * arrived: the length was counted short. Counting characters instead of UTF-8 bytes is how it
 * happens (`len(text)`, `text.length`), when the body has non-ASCII characters.
 */
function cutShort(ex: Exchange, op: Operation): Finding | null {
  if (ex.method !== 'POST' || ex.headers['content-length'] !== String(ex.body.length) || !unfinishedJson(ex.body)) return null;
  const nonAscii = /[^\x00-\x7f]/.test(JSON.stringify(op.create?.params ?? {}));
  const length = ex.body.length;
  return nonAscii
    ? {
        mistake: 'content_length_in_characters',
        text: `sent Content-Length: ${length} for a longer body: the service read ${length} bytes and the JSON stops there, cut short. Content-Length counts the UTF-8 bytes sent, not characters; the body has non-ASCII characters, which take 2 to 4 bytes each`,
      }
    : {
        mistake: 'content_length_short',
        text: `sent Content-Length: ${length} for a longer body: the service read ${length} bytes and the JSON stops there, cut short; Content-Length must count every byte sent`,
      };
}

/** Whether bytes are the start of a JSON object or array that does not end: a string or a bracket left open. */
function unfinishedJson(body: Buffer): boolean {
  const text = body.toString('utf8');
  if (!/^\s*[[{]/.test(text)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return inString || depth > 0;
}

/** Whether the request is one the operation makes, at its exact URL. */
function whereProblem(ex: Exchange, op: Operation): Finding | null {
  const r = ex.route;
  const create = op.create;
  if (create && r.kind === 'create' && r.resource === op.resource && r.version === create.version) {
    return r.slash
      ? null
      : {
          mistake: 'slash_dropped_on_wire',
          text: `dropped the trailing slash on the wire: it called POST ${ex.target}, the interface's create URL is ${targets.create(op.resource, create.version)}`,
        };
  }
  if (r.kind === 'lookup-ref' && r.resource === op.resource && op.reference !== undefined && op.id === undefined && !op.push) {
    if (!r.slash) {
      return {
        mistake: 'slash_dropped_on_wire',
        text: `dropped the trailing slash on the wire: it called GET ${ex.target}, a lookup by reference is /v2/merchants/${op.resource}/?reference_id=…`,
      };
    }
    const q = queryProblem(r.rawQuery, op.reference);
    return q ? { mistake: q.mistake, text: `GET ${ex.target}: ${q.text}` } : null;
  }
  if (r.kind === 'lookup-id' && r.resource === op.resource && op.id !== undefined) {
    if (r.slash)
      return {
        mistake: 'slash_added_on_wire',
        text: `added a trailing slash on the wire: a lookup by id is ${targets.lookupId(op.resource, op.id)}`,
      };
    let id: string;
    try {
      id = decodeURIComponent(r.rawId);
    } catch {
      id = r.rawId;
    }
    return id === op.id
      ? null
      : { mistake: 'wrong_url', text: `GET ${ex.target} looks up ${JSON.stringify(id)}, not ${JSON.stringify(op.id)}` };
  }
  if (r.kind === 'push' && op.push) {
    // The push address is given whole: compared as sent, not as the base path is stripped.
    if (ex.rawTarget === op.push.target) return null;
    if (`${ex.rawTarget}/` === op.push.target)
      return { mistake: 'slash_dropped_on_wire', text: 'dropped the trailing slash of the card push address on the wire' };
    return {
      mistake: 'wrong_url',
      text: `the card push went to ${ex.rawTarget.replace(/push\/[^/]+/, 'push/…')}, not the address given (${op.push.target.replace(/push\/[^/]+/, 'push/…')})`,
    };
  }
  return { mistake: 'wrong_url', text: `called ${ex.method} ${ex.target}, which this operation never calls` };
}

/** The signature headers checked against what was sent; a mismatch named when it can be. */
function signatureFindings(ex: Exchange, earlier: readonly Exchange[], ctx: WireContext): Finding[] {
  const h = ex.headers;
  const ts = h['x-timestamp'] ?? '';
  const merchant = h['x-merchant-id'];
  const push = ex.route.kind === 'push';
  const sig = push ? h['x-simplified-signature'] : h['x-signature'];
  const name = push ? 'x-simplified-signature' : 'x-signature';
  if (!merchant || !ts || !sig) return [{ mistake: 'missing_header', text: `${said(ex)} lacks x-merchant-id, x-timestamp or ${name}` }];
  if (merchant !== ctx.me.merchantId)
    return [{ mistake: 'wrong_merchant', text: `x-merchant-id is ${JSON.stringify(merchant)}, not the merchant id given` }];
  if (!/^[0-9]+$/.test(ts))
    return [{ mistake: 'malformed_timestamp', text: `x-timestamp ${JSON.stringify(ts)} is not whole unix seconds in decimal digits` }];
  const findings: Finding[] = [];
  const millis = Math.abs(ex.at - Number(ts));
  if (ts.length >= 12 && millis <= (ctx.toleranceSeconds + 1) * 1000) {
    findings.push({
      mistake: 'timestamp_in_milliseconds',
      text: `x-timestamp ${ts} is in milliseconds (Date.now(), time.time() * 1000): the interface's timestamp is whole unix seconds`,
    });
  } else {
    const skewed = skewFinding(ex, ts, earlier, ctx);
    if (skewed) findings.push(skewed);
  }
  if (!/^[0-9a-f]{64}$/.test(sig))
    return [...findings, { mistake: 'malformed_signature', text: `${name} is not 64 lowercase hex characters` }];
  if (push) {
    const payinId = (parseJsonBytes(ex.body) as { payin_id?: unknown } | undefined)?.payin_id;
    const want = typeof payinId === 'string' ? simplifiedHeaders(ctx.me, ts, payinId)['x-simplified-signature'] : null;
    if (want !== sig) {
      const found = simplifiedSignedInstead({
        merchantId: merchant,
        secret: ctx.me.secret,
        timestamp: ts,
        method: ex.method,
        url: calledUrl(ex),
        body: ex.body,
        payinId: typeof payinId === 'string' ? payinId : '',
        signature: sig,
      });
      findings.push(
        found
          ? { mistake: found.mistake, text: `x-simplified-signature does not match the push sent: it matches ${found.what}` }
          : {
              mistake: 'signature_mismatch',
              text: 'x-simplified-signature is not the HMAC of merchant id + x-timestamp + payin id (no method)',
            },
      );
    }
    return findings;
  }
  const url = calledUrl(ex);
  const signs = (u: string, body: Uint8Array = ex.body) => hmacHex(ctx.me.secret, stringToSign(merchant, ts, ex.method, u, body)) === sig;
  if (signs(url)) return findings;
  findings.push(mismatch(ex, url, signs, { merchantId: merchant, secret: ctx.me.secret, timestamp: ts, signature: sig }));
  return findings;
}

/**
 * What an x-timestamp farther from the time its request arrived than the tolerance says, or null
 * when it is within it: the same x-timestamp as an earlier request of the case is a request sent
 * again as it was first signed; one off by the child's time-zone offset is local time and UTC
 * mixed up when the SDK made unix time (the runner gives the child a zone other than UTC for
 * this); any other is a clock that is off.
 */
function skewFinding(ex: Exchange, ts: string, earlier: readonly Exchange[], ctx: WireContext): Finding | null {
  const ahead = Number(ts) - Math.round(ex.at / 1000);
  if (Math.abs(ahead) <= ctx.toleranceSeconds + 1) return null;
  const way = `${spanText(ahead)} ${ahead > 0 ? 'ahead of' : 'behind'} the time the request arrived`;
  if (ahead < 0 && earlier.some((e) => e.headers['x-timestamp'] === ts)) {
    return {
      mistake: 'stale_timestamp',
      text: `${said(ex)} carried an x-timestamp ${way}, the x-timestamp of an earlier request: a re-send must be signed again, with a fresh timestamp`,
    };
  }
  const zone = offsetMinutes(ctx.zone, ex.at) * 60;
  // Off by the zone's offset, give or take the second the request took and the second it was floored to.
  if (zone !== 0 && Math.abs(Math.abs(ahead) - Math.abs(zone)) <= 2) {
    return {
      mistake: 'timestamp_time_zone',
      text: `x-timestamp is ${way}: exactly the offset of the child's time zone (TZ=${ctx.zone}, UTC${offsetText(zone / 60)}), so the SDK mixed up local time and UTC when it made unix time (the timestamp() of a naive UTC datetime such as datetime.utcnow(), time.mktime(time.gmtime()), calendar.timegm(time.localtime()), Date.now() shifted by getTimezoneOffset()); a clock or time-zone mistake, not a re-send: unix time has no time zone, take it as the clock gives it (time.time(), Date.now()), in whole seconds`,
    };
  }
  return {
    mistake: 'clock_skew',
    text: `x-timestamp is ${way}, past the ${ctx.toleranceSeconds} s tolerance, and no earlier request of the call carried it: the SDK's clock, or its conversion to unix time, is off (not a re-send)`,
  };
}

/**
 * Names what an SDK signed instead of the request it sent, from @pay/sign's catalogue of signing
 * mistakes (the sandbox's hints come from the same one), in the SDK author's terms; then the
 * mistakes only this runner can see: the base path of the base_url it gave left out, a body as a
 * serialiser the catalogue does not know writes it.
 */
function mismatch(
  ex: Exchange,
  url: string,
  signs: (u: string, body?: Uint8Array) => boolean,
  who: { merchantId: string; secret: string; timestamp: string; signature: string },
): Finding {
  const found = signedInstead({ ...who, method: ex.method, url, body: ex.body });
  if (found) return { mistake: found.mistake, text: saidOf(found, url) };
  const withoutBase = url.replace(BASE_PATH, '');
  if (withoutBase !== url && signs(withoutBase)) {
    return {
      mistake: 'base_path_lost',
      text: `signed ${withoutBase} but called ${url}: the signature leaves out the path of the base URL given; sign the URL called, base path included`,
    };
  }
  const value = parseJsonBytes(ex.body);
  if (ex.method !== 'GET' && value !== undefined) {
    for (const s of SERIALISERS) {
      const other = Buffer.from(serialise(value, s.style), 'utf8');
      if (!other.equals(ex.body) && signs(url, other)) {
        return {
          mistake: 'body_reserialised',
          text: `signed a different body than it sent: the signature is over the body as ${s.name} writes it (${other.length} bytes), the request sent other bytes (${ex.body.length}) of the same JSON`,
        };
      }
    }
  }
  return {
    mistake: 'signature_mismatch',
    text: `x-signature of ${ex.method} ${url} does not match that URL and the ${ex.body.length} body bytes sent, nor any known signing mistake (signed a different URL or body than it sent)`,
  };
}

/** A catalogue mistake in the SDK author's terms: what it did on the wire, then what it signed. */
function saidOf(found: SignedInstead, url: string): string {
  switch (found.mistake) {
    case 'slash_dropped_on_wire':
      return `signed ${toggleSlash(url)} but called ${url}: the trailing slash was dropped on the wire after signing`;
    case 'slash_added_on_wire':
      return `signed ${toggleSlash(url)} but called ${url}: a trailing slash was added on the wire after signing`;
    case 'query_not_encoded_as_signed':
      return `the query on the wire is not encoded as signed: the signature is over ${found.what}`;
    case 'body_reserialised':
      return `signed a different body than it sent: the signature is over ${found.what}`;
    case 'url_path_only':
      return `signed ${found.what}`;
    default:
      return `x-signature does not match the request sent: it matches ${found.what}`;
  }
}

/**
 * The params a create must send: as given, and, when they have no reference_id (the interface makes
 * it optional), with the one the SDK made for it, if any: 1 to 64 characters, as the interface says.
 */
function withOwnReference(params: Record<string, unknown>, body: Buffer): Record<string, unknown> {
  if ('reference_id' in params) return params;
  const own = referenceIn(body);
  return own !== null && own.length >= 1 && [...own].length <= 64 ? { ...params, reference_id: own } : params;
}

/** A POST's body: JSON, sent as such, and the value the SDK was asked to send. */
function bodyFindings(ex: Exchange, op: Operation): Finding[] {
  if (ex.method !== 'POST') return [];
  const type = ex.headers['content-type'] ?? '';
  const out: Finding[] = [];
  if (!/^application\/json\b/i.test(type))
    out.push({ mistake: 'content_type', text: `the body was sent as ${JSON.stringify(type)}, not application/json` });
  const want = op.create ? withOwnReference(op.create.params, ex.body) : op.push ? { payin_id: op.push.payinId, card: op.push.card } : null;
  if (want) {
    const p = bodyProblem(ex.body, want);
    // Card data is never quoted: only where the push body differs.
    if (p)
      out.push(
        op.push
          ? { mistake: p.mistake, text: 'the card push body is not {payin_id, card} as given' }
          : { mistake: p.mistake, text: `the body sent is not the one given: ${p.text}` },
      );
  }
  return out;
}
