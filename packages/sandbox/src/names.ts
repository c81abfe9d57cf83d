// The names the sandbox answers under, and what counts as the sandbox itself.
import { isLoopbackHost, MAX_URL_LENGTH, WEBHOOK_URL_PATTERN } from '@pay/schema';

//
// A sandbox runs on a developer's machine while they browse. A web page cannot reach it under a
// name of the page's choosing unless the sandbox answers to any `Host`: DNS rebinding points an
// attacker's name at 127.0.0.1, and the browser then treats the sandbox as that page's own origin.
// So every request must name the sandbox by a name no attacker can point anywhere: a loopback
// name, a special-use name that public DNS never resolves, the public URL it was told it is
// served at, or a name the developer listed for a private network (docker-compose).
//
// The same names decide what is the sandbox itself: a webhook to its own origin would come from
// 127.0.0.1 and could drive its admin API, so the sandbox never sends one.

/** How the sandbox is reached, beyond loopback. */
export interface NameOptions {
  /** The public origin the sandbox is served at (`publicUrl`), if any. */
  publicUrl: string | undefined;
  /** Host names of a private network where plain http is fine (`allowHttpHosts`), lower case. */
  httpHosts: ReadonlySet<string>;
  /** Whether it listens on more than loopback (a Node host bound to 0.0.0.0, a LAN address). */
  boundBeyondLoopback?: boolean;
  /** Origins on this machine webhooks may go to while it is reachable from outside (`localReceivers`). */
  localReceivers?: ReadonlySet<string>;
}

// Names public DNS never resolves (RFC 2606, RFC 6761): nobody can serve a page under them from
// outside, so a Fetch host may be called as http://sandbox.test without opening a hole.
const SPECIAL_USE = /^(?:[a-z0-9-]+\.)+(?:test|example|invalid)$/;
// Addresses that reach this machine when connected to, though no browser sends them as a Host.
const ANY_ADDRESS = /^(?:0\.0\.0\.0|\[::\])$/;
// A Host header: a DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port.
const HOST_HEADER = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/;

const WEBHOOK_URL = new RegExp(WEBHOOK_URL_PATTERN);

/** A host name in the form compared here: lower case, without a trailing dot. */
function canonical(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The names of one sandbox. */
export class Names {
  readonly #publicHost: string | undefined;
  readonly #publicOrigin: string | undefined;
  readonly #httpHosts: ReadonlySet<string>;
  readonly #localReceivers: ReadonlySet<string>;
  /**
   * Whether the sandbox is reachable from outside this machine: served at a public URL that is not
   * a loopback name, or listening beyond loopback. Then no webhook goes to this machine's loopback
   * unless the developer named its origin, and no merchant with a published secret is taken.
   */
  readonly exposed: boolean;
  /**
   * Whether the admin area needs the token from every caller, this machine's own included: the
   * sandbox was told it may be reached from elsewhere (it is `exposed`, or was given the names of
   * a private network in allowHttpHosts, or local receivers to keep while reachable from outside).
   * A proxy that adds no forwarding header and rewrites Host to the sandbox's own address (nginx's
   * default `proxy_pass`), or a TCP tunnel whose client sends `Host: localhost:PORT`, makes a
   * caller from anywhere look exactly like the developer; once the developer has said such a path
   * may exist, nothing in a request can tell them apart, so no request is taken for theirs.
   */
  readonly adminTokenFromEveryone: boolean;

  constructor(options: NameOptions) {
    this.#httpHosts = options.httpHosts;
    this.#localReceivers = options.localReceivers ?? new Set();
    if (options.publicUrl !== undefined) {
      const url = new URL(options.publicUrl);
      this.#publicHost = canonical(url.hostname);
      this.#publicOrigin = url.origin;
    }
    this.exposed = options.boundBeyondLoopback === true || (this.#publicHost !== undefined && !isLoopbackHost(this.#publicHost));
    this.adminTokenFromEveryone = this.exposed || this.#httpHosts.size > 0 || this.#localReceivers.size > 0;
  }

  /**
   * Whether a request's authority (`Host`) is the public URL's host, when that is not a loopback
   * name: such a request came through the proxy or tunnel in front, from anywhere.
   */
  isPublicName(authority: string | undefined): boolean {
    if (this.#publicHost === undefined || isLoopbackHost(this.#publicHost) || authority === undefined) return false;
    const host = HOST_HEADER.exec(authority.toLowerCase())?.[1];
    return host !== undefined && canonical(host) === this.#publicHost;
  }

  /**
   * Why a webhook must not go to `target`, or undefined when it may: the sandbox itself (`ports`:
   * where it listens), or, while it is reachable from outside (or the transaction was created from
   * outside: `fromOutside`), a loopback address the developer did not name in localReceivers.
   */
  webhookProblem(target: string, ports: ReadonlySet<number>, fromOutside = false): string | undefined {
    if (this.isSelf(target, ports)) return "the sandbox's own address";
    if (!this.exposed && !fromOutside) return undefined;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return undefined;
    }
    const name = canonical(url.hostname);
    if ((isLoopbackHost(name) || ANY_ADDRESS.test(name)) && !this.#localReceivers.has(url.origin)) {
      return 'a loopback address, while the sandbox is reachable from outside (name its origin in localReceivers to allow it)';
    }
    return undefined;
  }

  /** Whether a host name is one the sandbox answers under. */
  answersTo(hostname: string): boolean {
    const name = canonical(hostname);
    return isLoopbackHost(name) || SPECIAL_USE.test(name) || name === this.#publicHost || this.#httpHosts.has(name);
  }

  /**
   * Why a `Host` header (or a Fetch request's host) is refused, or undefined when the sandbox
   * answers to it. The message names the header, never more than 100 characters of its value.
   */
  hostProblem(host: string | undefined): string | undefined {
    if (host === undefined || host === '') return 'the request has no Host header; the sandbox answers only under its own names';
    // A DNS name is at most 253 characters: a longer Host would only make every URL built on it long.
    if (host.length > 262) return 'header host is longer than any name of this sandbox (a DNS name and a port)';
    const parts = HOST_HEADER.exec(host.toLowerCase());
    if (parts === null || !this.answersTo(parts[1]!)) {
      return (
        `header host ${JSON.stringify(host.slice(0, 100))} is not a name of this sandbox: it answers under localhost, 127.0.0.1, [::1]` +
        `${this.#publicHost === undefined ? '' : `, ${this.#publicHost} (publicUrl)`}` +
        `${this.#httpHosts.size === 0 ? '' : `, ${[...this.#httpHosts].join(', ')} (allowHttpHosts)`}` +
        ' and names under .localhost, .test and .example; to reach it under another name, start it with that name in allowHttpHosts or publicUrl'
      );
    }
    return undefined;
  }

  /** Whether a request that arrived on `origin` may be driven by a page of `pageOrigin` (the `Origin` header). */
  allowsOrigin(pageOrigin: string, origin: string): boolean {
    return pageOrigin === origin || pageOrigin === this.#publicOrigin;
  }

  /**
   * Whether a webhook address is acceptable: what the interface's schema accepts (https, or http
   * to loopback, at most MAX_URL_LENGTH characters), or plain http to a host listed in
   * `allowHttpHosts` that is otherwise just as valid.
   */
  acceptsWebhookUrl(url: string): boolean {
    // Counted in code points, as the schema counts (only a long URL is counted at all).
    if (url.length > MAX_URL_LENGTH && [...url].length > MAX_URL_LENGTH) return false;
    if (WEBHOOK_URL.test(url)) return true;
    if (this.#httpHosts.size === 0 || !/^http:\/\//i.test(url) || !WEBHOOK_URL.test(`https://${url.slice(7)}`)) return false;
    try {
      return this.#httpHosts.has(canonical(new URL(url).hostname));
    } catch {
      return false;
    }
  }

  /**
   * Whether a URL points at the sandbox itself: its public origin, or one of its names (or an
   * any-address such as 0.0.0.0) at a port it is listening on. Unparseable URLs are not.
   */
  isSelf(target: string, ports: ReadonlySet<number>): boolean {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return false;
    }
    if (url.origin === this.#publicOrigin) return true;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const name = canonical(url.hostname);
    return ports.has(port) && (this.answersTo(name) || ANY_ADDRESS.test(name));
  }
}
