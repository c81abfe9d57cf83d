// Types of postgres.mjs.

/** Where initdb and postgres are: PG_BIN, or the newest /usr/lib/postgresql/N/bin. */
export declare const PG_BIN: string;
/** True when initdb and postgres are installed. */
export declare const postgresAvailable: boolean;

/** A running throwaway cluster. */
export interface RunningPostgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication: no password). */
  url: string;
  /** Takes the server down at once (immediate shutdown, like a crash); the data stays for `restart`. */
  crash(): Promise<void>;
  /** Starts the server again on the same data and port, after `crash`. */
  restart(): Promise<void>;
  /** Kills the server (SIGKILL: it holds nothing worth keeping) and removes its directory. */
  stop(): Promise<void>;
}

/** Starts a cluster of its own and resolves once it accepts connections. */
export declare function startPostgres(): Promise<RunningPostgres>;

/** A new, empty database on `server` for one test file; resolves with its URL. */
export declare function databaseFor(server: { url: string }, name: string): Promise<string>;
