// The service as client mode's SDKs see it: a recording, fault-injecting proxy on loopback in front
// of the embedded sandbox. It keeps its own log of every request (the exact target, headers and
// body bytes), what it did to it, what the sandbox answered and what the SDK got, so the runner
// judges the wire and counts creates from its own records, not the sandbox's and never the SDK's.
// The faults are the runner's own (actions below), applied to the requests a case's rules match.
//
// It records each request at the wire's own level: the header lines as sent (names as written,
// values, order, repeats), the target as sent, the body's bytes, and the requests Node's HTTP
// parser refuses before any handler sees them (see refusedByParser). It serves the interface
// under a base path (BASE_PATH: the base_url an SDK is given has one) and, on a second listener,
// over TLS with a certificate no one trusts.
import { createServer, request as httpRequest, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { idIn, referenceIn } from './body.js';
import { untrustedCertificate } from './certificate.js';
import { routeOf, TRAP_PREFIX, type Route } from './routes.js';
import { hmacHex, stringToSign, type Signer } from '../../signing.js';

/** What the proxy does to a request a rule matches. */
export type Action =
  /** the connection is closed before the request reaches the service: nothing is created */
  | { kind: 'drop_before_commit' }
  /** the service handles it; its answer is lost (the connection closed instead) */
  | { kind: 'drop_after_commit' }
  /** the service handles it; the SDK gets this status instead of its answer */
  | { kind: 'status_after_commit'; status: number }
  /** held `ms` before it reaches the service (past the SDK's time limit), then handled */
  | { kind: 'late_commit'; ms: number }
  /**
   * held until just before its x-timestamp + `toleranceSeconds` (the last moment the service
   * accepts it), then handled; its answer lost, and what it creates missing from lookups for `lagMs`,
   * or only until two lookups that came from x-timestamp + tolerance + 1 on (when an SDK that
   * forgets settle_seconds takes a miss for proof) have missed it: the SDK's next lookup finds it
   */
  | { kind: 'commit_at_deadline'; toleranceSeconds: number; lagMs: number }
  /** handled; its answer held `ms` before the SDK gets it (past the SDK's time limit), unless the SDK hangs up first */
  | { kind: 'hold_answer'; ms: number }
  /**
   * handled; what it creates is missing from lookups (404) for `ms` after, and past that until a
   * lookup has missed it, at most `atMostMs` after the create's x-timestamp: however late a loaded
   * machine runs the SDK, its first lookup misses. Its answer lost too when `dropAnswer`
   */
  | { kind: 'lookup_lag'; ms: number; dropAnswer?: boolean; atMostMs: number }
  /** answered by the proxy itself, never reaching the service */
  | { kind: 'answer'; status: number; contentType: string; body: string }
  /** refused by the proxy (403), whatever the rules: not an address of the interface (the sandbox's admin API, say) */
  | { kind: 'refuse' }
  /** answered 200 with a Content-Length longer than the body sent, and the connection closed */
  | { kind: 'truncate' }
  /** answered with a redirect to the same request under TRAP_PREFIX */
  | { kind: 'redirect'; status: number }
  /** handled; its JSON answer rewritten before the SDK gets it, with another 2xx status when `status` is given */
  | { kind: 'rewrite'; rewrite: (body: Record<string, unknown>) => Record<string, unknown>; status?: number }
  /**
   * handled; its answer sent chunked (no Content-Length), cut inside every multi-byte UTF-8
   * character so that each one arrives in two chunks
   */
  | { kind: 'split_utf8' }
  /**
   * handled; its status line and headers (with the Content-Length) sent at once, then its body in
   * `pieces` pieces `pauseMs` apart: no single read waits long, the whole answer does. Stops when
   * the SDK hangs up, and by the case's deadline
   */
  | { kind: 'trickle'; pieces: number; pauseMs: number }
  /**
   * handled; its answer written raw on the socket, byte for byte as `head` gives its header lines
   * (their names' case, their order, their spacing, as a server library would not write them),
   * then the body, then the connection closed. With no Content-Length among them, the close is
   * what ends the body (HTTP/1.0's framing, which HTTP/1.1 keeps).
   */
  | { kind: 'raw'; head: (body: Buffer) => readonly string[] }
  /** handled; answered with this Content-Type, another spelling of JSON's */
  | { kind: 'content_type'; contentType: string }
  /** handled; the connection kept alive after its answer (every other answer closes it) */
  | { kind: 'keep_alive' }
  /**
   * arriving on a connection that already carried a request (one kept alive): the connection
   * closed with no answer, the request never reaching the service, as when a service's idle
   * timeout runs out just as a request comes; on a new connection, handled as any
   */
  | { kind: 'close_kept_alive' }
  /** the service handles it; a gateway in front answers the SDK `status` with its own HTML page */
  | { kind: 'gateway_after_commit'; status: number };

/** Which requests a rule applies to, and how many of them. */
export interface Rule {
  on: Route['kind'];
  /** how many matching requests it applies to (default: all) */
  count?: number;
  /**
   * it applies from the case's first create on, until `times` matching requests that arrived from
   * `secondsAfterCreate` after that create's x-timestamp on have taken it: counted, not timed, so
   * that it outlasts that moment however late a loaded machine runs the SDK or the proxy (default:
   * always)
   */
  outlasts?: { secondsAfterCreate: number; times: number };
  action: Action;
}

/** What the SDK got for a request. */
type Delivered = { kind: 'answer'; status: number } | { kind: 'dropped' } | { kind: 'truncated' };

/** One request as the proxy saw and handled it. */
export interface Exchange {
  seq: number;
  /** wall clock at arrival, ms */
  at: number;
  /** the origin of the listener it arrived on: the proxy's http one, or its TLS one (https:) */
  origin: string;
  method: string;
  /** the request target exactly as received */
  rawTarget: string;
  /**
   * the request target as the interface's paths read it: `rawTarget` without BASE_PATH; as
   * received when it is not under BASE_PATH (the card proxy's address, or a request outside)
   */
  target: string;
  /** whether it came on a connection that had carried an earlier request (one kept alive) */
  reused?: boolean;
  /** every header line as sent, in order: its name as written, its value */
  rawHeaders: [string, string][];
  /**
   * header names in lower case, built from `rawHeaders`; a header sent twice keeps its values
   * joined by ", " (header_repeated is judged from `rawHeaders`, never from this)
   */
  headers: Record<string, string>;
  body: Buffer;
  /** why Node's HTTP parser refused the request (it was answered 400 and never handled), when it did */
  refused?: string;
  route: Route;
  /**
   * the fault or answer the proxy applied, by kind; 'outside_base' for a target outside BASE_PATH
   * and the card proxy (answered 404, as a gateway would), 'parser_refused' for one Node's parser
   * refused, 'plaintext_on_tls' for plain HTTP sent to the TLS listener (its method, target and
   * headers unknown: TLS refused the bytes before HTTP read them)
   */
  action: Action['kind'] | 'outside_base' | 'parser_refused' | 'plaintext_on_tls' | null;
  /** what the sandbox answered, when the request reached it */
  upstream: { status: number; body: Buffer } | null;
  /** what the SDK was sent */
  delivered: Delivered | null;
  /** wall clock when it was sent (or the connection closed), ms */
  deliveredAt: number | null;
  /** the body the SDK was sent, when it got a complete answer */
  deliveredBody: Buffer | null;
}

/**
 * The path of the base_url client mode gives: the proxy serves the interface under it (and the
 * card proxy at its own address, outside it), so an SDK must append the interface's paths to the
 * base URL as given; one that joins them as URLs (new URL('/v2/…', base), urljoin) loses it.
 * Two segments: a join that keeps all but the last segment is caught too.
 */
export const BASE_PATH = '/gateway/pay';
/** Where the card proxy is served: at the proxy's root, outside BASE_PATH, as the interface gives it its own address. */
export const CARD_PROXY_PATH = '/card-proxy';

const REFUSED = JSON.stringify({
  error: { code: 'forbidden', message: "not an address of the interface: the runner's proxy forwards only the service's endpoints" },
});
const NOT_FOUND = JSON.stringify({ error: { code: 'not_found', message: 'no transaction with this id or reference_id' } });
/** How long settle() still waits for a request the sandbox has not answered once the case's deadline has passed. */
const SETTLE_GRACE_MS = 2000;
/** The pause between the chunks of a split answer. */
const SPLIT_PAUSE_MS = 5;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade']);
/** What a gateway answers for an address it does not serve: outside BASE_PATH and the card proxy. */
const OUTSIDE = '<html><body><h1>404 Not Found</h1></body></html>';

/** The proxy, on a random loopback port, forwarding to `upstream` (an origin). */
export class ServiceProxy {
  /** every request since the last clear() */
  readonly log: Exchange[] = [];
  private rules: (Rule & { count: number; takenPast: number })[] = [];
  /** ids and references missing from lookups (see {@link Lag}) */
  private readonly lagging = new Map<string, Lag>();
  private seq = 0;
  /** requests still being handled (a held one, say): settle() waits for them */
  private readonly pending = new Set<Promise<void>>();
  /**
   * When the case in progress must be over (wall clock, ms): no hold lasts past it, whatever the
   * SDK's x-timestamp says, so a case never waits on a time the SDK chose.
   */
  private deadline = Number.POSITIVE_INFINITY;
  private readonly server: Server;
  /** The TLS listener: the same service, behind a self-signed certificate an SDK must refuse. */
  private readonly tlsServer: Server;
  private readonly sockets = new Set<Socket>();
  /** The answer in progress on each connection that has a request being handled. */
  private readonly inFlight = new Map<Socket, ServerResponse>();
  /** How many requests each connection has carried: the second on one is on a connection kept alive. */
  private readonly carried = new WeakMap<Socket, number>();
  origin = '';
  /** the TLS listener's origin (https://127.0.0.1:<port>) */
  tlsOrigin = '';
  upstream = '';
  /**
   * The merchant the sandbox knows. The sandbox knows only its origin, not BASE_PATH: a request
   * whose x-signature is right for the URL the SDK called is signed again for the URL forwarded.
   */
  signer: Signer | undefined;

  constructor() {
    // requireHostHeader off: Node would answer a request without Host itself, unseen; the runner
    // records it and names it.
    this.server = createServer({ requireHostHeader: false }, (req, res) => this.handle(req, res, this.origin));
    this.tlsServer = createHttpsServer({ ...untrustedCertificate(), requireHostHeader: false }, (req, res) =>
      this.handle(req, res, this.tlsOrigin),
    );
    for (const server of [this.server, this.tlsServer]) {
      // Connections are closed after each answer, but where a case keeps one alive: then it stays
      // open long enough for the SDK's next command, on the slowest machine.
      server.keepAliveTimeout = 10_000;
      server.on('connection', (s: Socket) => {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
      });
      server.on('clientError', (e: Error & { code?: string; rawPacket?: Buffer }, s: Socket) =>
        this.refusedByParser(e, s, server === this.tlsServer ? this.tlsOrigin : this.origin),
      );
    }
    // A TLS handshake the SDK refused (the certificate is untrusted, as it must be) is no request;
    // plain HTTP sent to the TLS listener is, in clear text: logged, its bytes unread.
    this.tlsServer.on('tlsClientError', (e: Error & { code?: string }) => {
      if (e.code !== 'ERR_SSL_HTTP_REQUEST') return;
      const ex = this.record(this.tlsOrigin, '', '', [], Buffer.alloc(0));
      ex.action = 'plaintext_on_tls';
      ex.delivered = { kind: 'dropped' };
      ex.deliveredAt = Date.now();
    });
  }

  /** Listens on loopback (http, and TLS on another port); returns the http origin. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => this.tlsServer.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.tlsOrigin = `https://127.0.0.1:${(this.tlsServer.address() as AddressInfo).port}`;
    return this.origin;
  }

  /**
   * Forgets the log, the rules and the lag of the case before; `limitMs`, the case's own time
   * limit from now, bounds every hold of the case (none when not given).
   */
  clear(rules: readonly Rule[] = [], limitMs = Number.POSITIVE_INFINITY): void {
    this.log.length = 0;
    this.rules = rules.map((r) => ({ count: Number.POSITIVE_INFINITY, ...r, takenPast: 0 }));
    this.lagging.clear();
    this.deadline = Date.now() + limitMs;
  }

  /**
   * Resolves once every request received so far has been handled (forwarded, answered or
   * dropped): holds end by the case's deadline, and the wait with them; a request the sandbox
   * still has not answered a little after it is cut off.
   */
  async settle(): Promise<void> {
    const giveUp = this.deadline + SETTLE_GRACE_MS - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = Number.isFinite(giveUp)
      ? new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, giveUp))))
      : null;
    try {
      while (this.pending.size > 0) {
        const all = Promise.all([...this.pending]);
        if ((await (late ? Promise.race([all, late]) : all)) === 'late') {
          for (const s of this.sockets) s.destroy();
          return;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms`, never past the case's deadline. */
  private hold(ms: number): Promise<void> {
    const bounded = Math.max(0, Math.min(ms, this.deadline - Date.now()));
    return new Promise((resolve) => setTimeout(resolve, bounded));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all([this.server, this.tlsServer].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  /** A request as received, logged. */
  private record(origin: string, method: string, rawTarget: string, rawHeaders: [string, string][], body: Buffer): Exchange {
    const headers: Record<string, string> = {};
    for (const [name, value] of rawHeaders) {
      const k = name.toLowerCase();
      headers[k] = headers[k] === undefined ? value : `${headers[k]}, ${value}`;
    }
    const target = serviceTarget(rawTarget);
    const ex: Exchange = {
      seq: ++this.seq,
      at: Date.now(),
      origin,
      method,
      rawTarget,
      target,
      rawHeaders,
      headers,
      body,
      route: routeOf(method, target),
      action: null,
      upstream: null,
      delivered: null,
      deliveredAt: null,
      deliveredBody: null,
    };
    this.log.push(ex);
    return ex;
  }

  /**
   * A request Node's HTTP parser refused before any handler saw it (a repeated Content-Length,
   * say: llhttp refuses it even with equal values, as it must: two lengths are a request
   * smuggler's tool). Node would answer 400 and close, and the runner would never know: the SDK
   * would get an answer for a request no log holds. So the bytes the parser was reading
   * (rawPacket: the request's head, when it came in one piece, as an SDK writes it) are read here
   * as a request, logged with the parser's reason, and answered 400 as Node would.
   */
  private refusedByParser(e: Error & { code?: string; rawPacket?: Buffer }, socket: Socket, origin: string): void {
    // Bytes after a request being handled (a body longer than its Content-Length said, data after
    // "Connection: close"): no request of their own; the one before is judged (its body cut
    // short). Node's own handling, kept: a 400 if that request's answer has not begun, and the
    // connection closed.
    const busy = this.inFlight.get(socket);
    if (busy) {
      if (socket.writable && !busy.headersSent) socket.write('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    // A connection reset or timed out mid-request has no request to log.
    if (e.code === 'ECONNRESET' || e.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !e.rawPacket || e.rawPacket.length === 0) {
      socket.destroy();
      return;
    }
    const head = readHead(e.rawPacket);
    const ex = this.record(origin, head.method, head.target, head.headers, head.body);
    ex.refused = `${e.code ?? 'error'}: ${e.message}`;
    ex.action = 'parser_refused';
    const body = Buffer.from(JSON.stringify({ error: { code: 'bad_request', message: 'the request is not valid HTTP/1.1' } }));
    ex.delivered = { kind: 'answer', status: 400 };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    } else socket.destroy();
  }

  private handle(req: IncomingMessage, res: ServerResponse, origin: string): void {
    const socket = req.socket;
    this.inFlight.set(socket, res);
    res.on('close', () => {
      if (this.inFlight.get(socket) === res) this.inFlight.delete(socket);
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) raw.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      const ex = this.record(origin, req.method ?? 'GET', req.url ?? '/', raw, Buffer.concat(chunks));
      const carried = this.carried.get(req.socket) ?? 0;
      this.carried.set(req.socket, carried + 1);
      ex.reused = carried > 0;
      const p = this.serve(ex, res).catch(() => {
        res.destroy();
      });
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    });
  }

  /** The first rule matching a request, with one use taken from it. */
  private take(route: Route): Action | null {
    const rule = this.rules.find((r) => r.count > 0 && r.on === route.kind && (r.outlasts === undefined || this.firstCreateAt() !== null));
    if (!rule) return null;
    rule.count--;
    const past = rule.outlasts;
    if (past && Date.now() >= this.firstCreateAt()! + past.secondsAfterCreate * 1000 && ++rule.takenPast >= past.times) rule.count = 0;
    return rule.action;
  }

  private async serve(ex: Exchange, res: ServerResponse): Promise<void> {
    if (!servedAt(ex.rawTarget)) {
      // Outside the base path and the card proxy: a gateway serves nothing there.
      ex.action = 'outside_base';
      return this.deliver(ex, res, 404, 'text/html', Buffer.from(OUTSIDE));
    }
    if (!forwardable(upstreamTarget(ex))) {
      // The sandbox behind the proxy also serves its admin API and dashboard (on loopback, and the
      // proxy's requests come from loopback): an SDK under test must never reach them.
      ex.action = 'refuse';
      return this.deliver(ex, res, 403, 'application/json', Buffer.from(REFUSED));
    }
    if (this.isLagging(ex)) return this.deliver(ex, res, 404, 'application/json', Buffer.from(NOT_FOUND));
    const action = this.take(ex.route);
    ex.action = action?.kind ?? null;
    switch (action?.kind) {
      case 'drop_before_commit':
        return this.drop(ex, res);
      case 'close_kept_alive':
        if (ex.reused === true) return this.drop(ex, res);
        break;
      case 'answer':
        return this.deliver(ex, res, action.status, action.contentType, Buffer.from(action.body, 'utf8'));
      case 'redirect':
        res.setHeader('location', `${ex.origin}${BASE_PATH}${TRAP_PREFIX}${ex.target}`);
        return this.deliver(ex, res, action.status, 'text/plain', Buffer.from('moved'));
      case 'truncate': {
        const body = Buffer.from('{"id":"pi_truncated","reference_id":"');
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length + 400) });
        res.write(body);
        ex.delivered = { kind: 'truncated' };
        ex.deliveredAt = Date.now();
        setTimeout(() => res.destroy(), 20);
        return;
      }
      case 'late_commit':
        await this.hold(action.ms);
        break;
      case 'commit_at_deadline': {
        // 200 ms before the tolerance ends by the wall clock: still accepted, whether the service
        // compares whole seconds or milliseconds; past the SDK's time limit by far. Counted from
        // the x-timestamp, or from the arrival when that is earlier: an x-timestamp hours ahead (a
        // clock or time-zone mistake) would hold the request for hours.
        const from = Math.min(sentAt(ex), ex.at);
        await this.hold(from + action.toleranceSeconds * 1000 - 200 - Date.now());
        break;
      }
    }
    // A record to hide is hidden from the moment its create is sent on, by the reference_id it
    // carries: a lookup that reaches the service while the create is being handled (the proxy's
    // loop run late, say) misses it too, and the SDK cannot find it before the case means it to.
    const lag = action?.kind === 'lookup_lag' || action?.kind === 'commit_at_deadline' ? this.hide(ex.body) : null;
    const up = await this.forward(ex).catch((e: unknown) => {
      if (lag !== null) this.unhide(lag); // nothing was made: nothing stays hidden
      throw e;
    });
    ex.upstream = up;
    // The faults "after commit" apply to a request the service accepted; a refusal reaches the SDK as it is.
    const committed = up.status >= 200 && up.status < 300;
    if (lag !== null && !committed) this.unhide(lag);
    if (committed && action?.kind === 'drop_after_commit') return this.drop(ex, res);
    if (committed && action?.kind === 'status_after_commit') {
      const body = JSON.stringify({ error: { code: 'internal_error', message: 'the service failed after handling the request' } });
      return this.deliver(ex, res, action.status, 'application/json', Buffer.from(body));
    }
    if (committed && action?.kind === 'gateway_after_commit') {
      const page = `<html><head><title>${action.status} ${STATUS_CODES[action.status] ?? ''}</title></head><body><center><h1>${action.status} ${STATUS_CODES[action.status] ?? ''}</h1></center></body></html>`;
      return this.deliver(ex, res, action.status, 'text/html', Buffer.from(page));
    }
    if (committed && lag !== null && action?.kind === 'lookup_lag') {
      this.lag(lag, up.body, { until: Math.min(sentAt(ex), ex.at) + action.atMostMs, from: Date.now() + action.ms, needed: 1 });
      if (action.dropAnswer) return this.drop(ex, res);
    }
    if (committed && lag !== null && action?.kind === 'commit_at_deadline') {
      // Hidden for as long as the settle window allows, so that an SDK that forgets it still looks
      // within it however late a loaded machine runs it; but shown once two lookups past the point
      // where such an SDK re-sends have missed, so that a correct SDK's next lookup finds it. Two:
      // the first to come after that point may have been sent before it (an SDK judges a miss by
      // when it sent the lookup); the second was sent after the first was answered.
      this.lag(lag, up.body, { until: Date.now() + action.lagMs, from: sentAt(ex) + (action.toleranceSeconds + 1) * 1000, needed: 2 });
      return this.drop(ex, res);
    }
    if (action?.kind === 'hold_answer') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(action.ms, this.deadline - Date.now())));
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (committed && action?.kind === 'rewrite') {
      const rewritten = Buffer.from(
        JSON.stringify(action.rewrite(JSON.parse(up.body.toString('utf8')) as Record<string, unknown>)),
        'utf8',
      );
      return this.deliver(ex, res, action.status ?? up.status, 'application/json', rewritten);
    }
    if (committed && action?.kind === 'split_utf8') return this.deliverSplit(ex, res, up.status, up.contentType, up.body);
    if (action?.kind === 'trickle') return this.deliverTrickle(ex, res, up.status, up.contentType, up.body, action);
    if (committed && action?.kind === 'raw') return this.deliverRaw(ex, res, up.status, action.head(up.body), up.body);
    if (committed && action?.kind === 'content_type') return this.deliver(ex, res, up.status, action.contentType, up.body);
    return this.deliver(ex, res, up.status, up.contentType, up.body);
  }

  /**
   * When the case's first create was sent (epoch ms): its x-timestamp, or its arrival when that is
   * earlier (a timestamp ahead never stretches a rule); null before any create.
   */
  private firstCreateAt(): number | null {
    const first = this.log.find((ex) => ex.route.kind === 'create');
    return first === undefined ? null : Math.min(sentAt(first), first.at);
  }

  /** Whether a lookup asks for a record still hidden by a lookup_lag. */
  private isLagging(ex: Exchange): boolean {
    const r = ex.route;
    const key =
      r.kind === 'lookup-id'
        ? `id:${safeDecode(r.rawId)}`
        : r.kind === 'lookup-ref'
          ? `ref:${safeDecode(r.rawQuery.replace(/^reference_id=/, ''))}`
          : null;
    const lag = key === null ? undefined : this.lagging.get(key);
    const now = Date.now();
    if (lag === undefined || now >= lag.until) return false;
    // The misses that count: after the last needed, from the next lookup on, by id or by reference, it shows.
    if (now >= lag.from && ++lag.misses >= lag.needed) lag.until = now;
    return true;
  }

  /**
   * Hides what a create will make from lookups by the reference_id its body carries, until
   * {@link lag} says for how long (a create with none is found by nothing before its answer).
   */
  private hide(body: Buffer): Lag {
    const lag: Lag = { until: Number.POSITIVE_INFINITY, from: Number.POSITIVE_INFINITY, needed: 1, misses: 0 };
    const reference = referenceIn(body);
    if (reference !== null) this.lagging.set(`ref:${reference}`, lag);
    return lag;
  }

  /** Shows again what {@link hide} hid: its create made nothing. */
  private unhide(lag: Lag): void {
    for (const [key, hidden] of this.lagging) if (hidden === lag) this.lagging.delete(key);
  }

  /** Keeps the record in `answer` hidden from lookups, by its id and reference_id, as `hide` says. */
  private lag(lag: Lag, answer: Buffer, hide: Omit<Lag, 'misses'>): void {
    Object.assign(lag, hide);
    // One entry for both keys: a miss by reference shows it by id too.
    const id = idIn(answer);
    const reference = referenceIn(answer);
    if (id !== null) this.lagging.set(`id:${id}`, lag);
    if (reference !== null) this.lagging.set(`ref:${reference}`, lag);
  }

  private drop(ex: Exchange, res: ServerResponse): void {
    ex.delivered = { kind: 'dropped' };
    ex.deliveredAt = Date.now();
    res.socket?.destroy();
    res.destroy();
  }

  private deliver(ex: Exchange, res: ServerResponse, status: number, contentType: string, body: Buffer): void {
    // The SDK hung up first (its time limit ran out): it got nothing.
    if (res.destroyed || !res.socket || res.socket.destroyed) {
      this.drop(ex, res);
      return;
    }
    ex.delivered = { kind: 'answer', status };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    res.writeHead(status, {
      'content-type': contentType,
      'content-length': String(body.length),
      date: new Date().toUTCString(),
      ...closing(ex),
    });
    res.end(body);
  }

  /**
   * An answer written on the socket as it is: the status line, the header lines exactly as given,
   * the body, and the connection closed (Node's ServerResponse would write its own Date and
   * Connection lines, in its own case and order).
   */
  private deliverRaw(ex: Exchange, res: ServerResponse, status: number, lines: readonly string[], body: Buffer): void {
    const socket = res.socket;
    if (res.destroyed || !socket || socket.destroyed) {
      this.drop(ex, res);
      return;
    }
    ex.delivered = { kind: 'answer', status };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    socket.end(
      Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]),
    );
  }

  /**
   * An answer sent chunked, each chunk ending inside a multi-byte UTF-8 character (its first byte
   * in one chunk, the rest in the next), a few milliseconds apart so that each arrives on its own.
   * HTTP lets a service frame a body in any chunks, and a reader must join the bytes before it
   * decodes them.
   */
  private async deliverSplit(ex: Exchange, res: ServerResponse, status: number, contentType: string, body: Buffer): Promise<void> {
    if (res.destroyed || !res.socket || res.socket.destroyed) return this.drop(ex, res);
    ex.delivered = { kind: 'answer', status };
    ex.deliveredBody = body;
    // The SDK may hang up between two chunks: what is left is written to nobody.
    res.on('error', () => {});
    res.writeHead(status, { 'content-type': contentType, date: new Date().toUTCString(), ...closing(ex) });
    let from = 0;
    for (let i = 0; i < body.length; i++) {
      // A lead byte of a 2- to 4-byte sequence: the chunk ends just after it.
      if (body[i]! < 0xc0) continue;
      res.write(body.subarray(from, i + 1));
      from = i + 1;
      await this.hold(SPLIT_PAUSE_MS);
    }
    ex.deliveredAt = Date.now();
    res.end(body.subarray(from));
  }

  /**
   * An answer whose head goes at once and whose body trickles, piece by piece: the SDK's time limit
   * must bound the whole attempt, not each read. Recorded as delivered only when its last byte went
   * to an SDK still waiting for it (deliveredAt: then); an SDK that hung up first got it cut off.
   */
  private async deliverTrickle(
    ex: Exchange,
    res: ServerResponse,
    status: number,
    contentType: string,
    body: Buffer,
    action: { pieces: number; pauseMs: number },
  ): Promise<void> {
    if (res.destroyed || !res.socket || res.socket.destroyed) return this.drop(ex, res);
    let gone = false;
    res.on('close', () => (gone = true));
    // The SDK may hang up between two pieces: what is left is written to nobody.
    res.on('error', () => {});
    res.writeHead(status, { 'content-type': contentType, 'content-length': String(body.length), date: new Date().toUTCString() });
    res.flushHeaders();
    const size = Math.ceil(body.length / action.pieces);
    for (let from = 0; from < body.length; from += size) {
      await this.hold(action.pauseMs);
      if (gone || Date.now() >= this.deadline) break;
      res.write(body.subarray(from, from + size));
    }
    if (gone || Date.now() >= this.deadline) {
      ex.delivered = { kind: 'truncated' };
      ex.deliveredAt = Date.now();
      res.destroy();
      return;
    }
    ex.delivered = { kind: 'answer', status };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    res.end();
  }

  /**
   * The request sent on to the sandbox as received (target, header lines with their repeats,
   * bytes), but for its x-signature when it is signed for BASE_PATH (see signedUpstream); its
   * whole answer.
   */
  private forward(ex: Exchange): Promise<{ status: number; body: Buffer; contentType: string }> {
    const up = new URL(this.upstream);
    const target = upstreamTarget(ex);
    const signature = this.signedUpstream(ex, target);
    // Header lines as a flat list: Node sends each as given, repeats included.
    const headers: string[] = [];
    for (const [name, value] of ex.rawHeaders) {
      const k = name.toLowerCase();
      if (HOP_BY_HOP.has(k)) continue;
      headers.push(name, k === 'x-signature' && signature !== undefined ? signature : value);
    }
    headers.push('content-length', String(ex.body.length));
    return new Promise((resolve, reject) => {
      const req = httpRequest({ hostname: up.hostname, port: up.port, method: ex.method, path: target, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            contentType: res.headers['content-type'] ?? 'application/json',
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(ex.body);
    });
  }

  /**
   * The x-signature the sandbox is sent for a request under BASE_PATH, or undefined to send the
   * SDK's as it is. The sandbox verifies a signature over its own origin and the target forwarded,
   * which has no BASE_PATH; the SDK signed the URL it called, which has. So a signature right for
   * the URL called is replaced by the runner's over the URL forwarded (same timestamp, method and
   * body: the sandbox still judges those), and one that is wrong for it but would pass there
   * (signed without the base path) is spoiled, so the sandbox accepts exactly what the service
   * at the base URL would. A followed redirect is verified as the URL it was redirected from.
   */
  private signedUpstream(ex: Exchange, target: string): string | undefined {
    const sig = ex.headers['x-signature'];
    const ts = ex.headers['x-timestamp'];
    const merchant = ex.headers['x-merchant-id'];
    if (!this.signer || !underBase(ex.rawTarget) || !sig || !ts || !merchant || !/^[0-9a-f]{64}$/.test(sig)) return undefined;
    const signs = (url: string) => hmacHex(this.signer!.secret, stringToSign(merchant, ts, ex.method, url, ex.body));
    if (signs(`${ex.origin}${BASE_PATH}${target}`) === sig) return signs(`${this.origin}${target}`);
    if (signs(`${this.origin}${target}`) === sig) return `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
    return undefined;
  }
}

/** Whether a request target is under BASE_PATH. */
const underBase = (rawTarget: string) => rawTarget.startsWith(`${BASE_PATH}/`);

/** Whether the proxy serves a request target: under BASE_PATH, or the card proxy's. */
const servedAt = (rawTarget: string) => underBase(rawTarget) || rawTarget.startsWith(`${CARD_PROXY_PATH}/`);

/** A request target as the interface's paths read it: without BASE_PATH, when under it. */
const serviceTarget = (rawTarget: string) => (underBase(rawTarget) ? rawTarget.slice(BASE_PATH.length) : rawTarget);

/**
 * A request's head read from raw bytes, leniently: its request line, its header lines (name as
 * written, value without surrounding white space) and what follows the blank line. Used only for
 * a request Node's parser refused, to say why.
 */
export function readHead(bytes: Buffer): { method: string; target: string; headers: [string, string][]; body: Buffer } {
  const text = bytes.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text);
  const headText = end ? text.slice(0, end.index) : text;
  const body = end ? bytes.subarray(end.index + end[0].length) : Buffer.alloc(0);
  const [requestLine = '', ...lines] = headText.split(/\r?\n/);
  const [method = 'GET', target = '/'] = requestLine.split(' ');
  const headers: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  // Header values as UTF-8, as Node reads them (latin1 kept the bytes one for one).
  return {
    method,
    target,
    headers: headers.map(([n, v]) => [n, Buffer.from(v, 'latin1').toString('utf8')]),
    body,
  };
}

/**
 * The Connection header of an answer: the connection is closed after each one (HTTP lets a
 * service close it whenever it likes), but where a case keeps it alive. So an SDK that keeps
 * connections alive reuses one only where a case means it to, whatever the cases before it did.
 */
const closing = (ex: Exchange): Record<string, string> => (ex.action === 'keep_alive' ? {} : { connection: 'close' });

/**
 * A record missing from lookups: until the wall-clock time `until` (ms), or until `needed` lookups
 * that came from `from` on have missed it, whichever is first.
 */
interface Lag {
  until: number;
  from: number;
  needed: number;
  misses: number;
}

/** A request's x-timestamp in epoch ms, or its arrival when it has none in whole seconds. */
const sentAt = (ex: Exchange): number => {
  const ts = ex.headers['x-timestamp'] ?? '';
  return /^[0-9]{1,11}$/.test(ts) ? Number(ts) * 1000 : ex.at;
};

/** The request target sent on to the sandbox: a followed redirect's without the trap's prefix. */
const upstreamTarget = (ex: Exchange) => (ex.route.kind === 'trap' ? ex.target.slice(TRAP_PREFIX.length) : ex.target);

/**
 * Whether a request target is one of the interface's addresses, which the sandbox may see: under
 * /v1/merchants/, /v2/merchants/ or the card proxy, with no dot segment and nothing that decodes
 * to the sandbox's own paths (its admin API is /_sandbox/, its pages elsewhere).
 */
export function forwardable(target: string): boolean {
  if (!/^\/(?:v1\/merchants|v2\/merchants|card-proxy\/v1\/push)\//.test(target)) return false;
  const path = safeDecode(target.split(/[?#]/)[0]!).toLowerCase();
  return !path.includes('_sandbox') && !/(?:^|\/)\.{1,2}(?:\/|$)/.test(path) && !path.includes('\\');
}

/** A percent-encoded value decoded, or as it is when it cannot be. */
function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
