// What to do when the database cannot be reached. The driver's error says what failed (`connect
// ECONNREFUSED 127.0.0.1:5432`) but not what to do, and a newcomer whose server is not running yet
// is left guessing. The hint is made from the error's code, address, port and host name only, each
// checked to be what it claims: never from the connection string, which may hold a password.

/** What Node's net errors and the drivers' server errors carry that says where and why. */
interface ConnectFailure {
  code?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  /** The attempts of a connection to a name with several addresses (an AggregateError). */
  errors?: unknown;
}

const IP_ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/** The error that says most: an AggregateError's first attempt (Node tries each address of a name). */
function attemptOf(cause: unknown): ConnectFailure | undefined {
  if (cause === null || typeof cause !== 'object') return undefined;
  const failure = cause as ConnectFailure;
  const first = Array.isArray(failure.errors) ? (failure.errors[0] as ConnectFailure | undefined) : undefined;
  return failure.address === undefined && first !== undefined && typeof first === 'object'
    ? { ...first, code: failure.code ?? first.code }
    : failure;
}

/** `127.0.0.1:5432`, `[::1]:5432` and the `pg_isready` line that checks it, when the error names both. */
function where(failure: ConnectFailure): { at: string; check: string } | undefined {
  const { address, port } = failure;
  if (typeof address !== 'string' || !IP_ADDRESS.test(address) || !Number.isInteger(port)) return undefined;
  return { at: address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`, check: `pg_isready -h ${address} -p ${port}` };
}

/**
 * A sentence saying what to check when `cause` is a failure to reach or enter the database (`Nothing
 * accepts connections at 127.0.0.1:5432: is the PostgreSQL server running ...`), or '' for any other
 * error.
 */
export function connectionHint(cause: unknown): string {
  const failure = attemptOf(cause);
  if (failure === undefined) return '';
  const place = where(failure);
  const at = place === undefined ? 'the host and port of the connection string' : place.at;
  const check = place === undefined ? '`pg_isready -h HOST -p PORT`' : `\`${place.check}\``;
  switch (failure.code) {
    case 'ECONNREFUSED':
      return `Nothing accepts connections at ${at}: is the PostgreSQL server running, and are the host and port of the connection string (or PGHOST and PGPORT) the server's? Check with ${check}.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `No answer from ${at}: is the host of the connection string (or PGHOST) right, and does a firewall let its port through? Check with ${check}.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN': {
      const name = typeof failure.hostname === 'string' && HOST_NAME.test(failure.hostname) ? ` ${failure.hostname}` : '';
      return `The host name${name} does not resolve: check the host of the connection string (or PGHOST).`;
    }
    case '28P01':
    case '28000':
      return "The server refused the user or its password: check the user and password of the connection string (or PGUSER and PGPASSWORD), and the server's pg_hba.conf.";
    case '3D000':
      return 'The database named in the connection string does not exist on that server: create it (`createdb NAME`) or name another (or PGDATABASE).';
    case '57P03':
      return 'The server is starting up or shutting down: try again in a moment.';
    default:
      return '';
  }
}
