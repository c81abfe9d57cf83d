/** The hosts file read for the names the system resolver answers without asking a DNS server. */
export declare const HOSTS_FILE: string;

/** A lookup the guard refused. */
export interface Violation {
  /** The function called, e.g. `dns.lookup`, `dns.promises.resolve4`. */
  how: string;
  /** The name (or address) it was asked for. */
  name: string;
  /** The process it was asked in. */
  pid: number;
}

/**
 * Whether `dns.lookup` may resolve `name` without a query leaving the machine: an address, a
 * loopback name (`localhost`), or a name of the hosts file.
 */
export declare function isLocalName(name: string): boolean;

/**
 * Installs the guard in this process (once; later calls only set `report`). `report`: a file each
 * refused lookup is appended to as a JSON line, read by the parent process's setup; none in a test
 * process (a suite started by another suite's test checks its own tests, and reports to nobody).
 */
export declare function installNetGuard(options?: { report?: string }): void;

/** The lookups refused in this process since the last call, which empties the list. */
export declare function takeViolations(): Violation[];

/**
 * Lets `dns.lookup` resolve `name` in this process from now on: the one declared exception, for a
 * test whose purpose needs a package registry. `why` says why, where the exception is made.
 */
export declare function allowLookup(name: string, why: string): void;
