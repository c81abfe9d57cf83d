// A PostgreSQL server that is not there: `openJournal` with a pg pool (or postgres.js) whose server
// is down rejects with a DatabaseError that says what failed and what to check (is the server
// running, the host and port, the pg_isready line that checks them), never the password of the
// connection string. Before, it said only "the database failed: connect ECONNREFUSED
// 127.0.0.1:5432 (migrate)". Real drivers against a closed port on loopback; then the other
// failures to reach or enter a database, as the drivers report them.
import { createClient } from '@pay/client';
import { freePort } from '@pay/test-support';
import pg from 'pg';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { DatabaseError, type DatabaseLike, openJournal } from '../src/index.js';

const PASSWORD = 'hunter2-never-in-errors';
const client = createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm_1', secret: 'sk_test_1' });

/** What openJournal rejects with against `database`, which is then closed. */
async function refusal(database: DatabaseLike, close: () => Promise<unknown>): Promise<DatabaseError> {
  try {
    const error = await openJournal({ database, client }).then(
      () => {
        throw new Error('opened a journal on a database that is not there');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseError);
    return error as DatabaseError;
  } finally {
    await close();
  }
}

describe('a PostgreSQL server that is not running', () => {
  it.each(['pg', 'postgres.js'] as const)('through %s: what failed, and what to check, without the password', async (driver) => {
    const port = await freePort(); // free a moment ago: nothing listens there
    const url = `postgres://shop:${PASSWORD}@127.0.0.1:${port}/shop`;
    let error: DatabaseError;
    if (driver === 'pg') {
      const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000 });
      pool.on('error', () => {});
      error = await refusal(pool, () => pool.end());
    } else {
      const sql = postgres(url, { connect_timeout: 5, onnotice: () => {} });
      error = await refusal(sql, () => sql.end({ timeout: 1 }));
    }
    expect(error).toMatchObject({ code: 'database_failed', step: 'migrate', reason: 'failed' });
    expect(error.message).toBe(
      `@pay/journal: the database failed: connect ECONNREFUSED 127.0.0.1:${port} (migrate). Nothing accepts connections at 127.0.0.1:${port}: ` +
        `is the PostgreSQL server running, and are the host and port of the connection string (or PGHOST and PGPORT) the server's? Check with \`pg_isready -h 127.0.0.1 -p ${port}\`.`,
    );
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toContain('shop:');
  });
});

describe('the other failures to reach or enter the database', () => {
  const net = (code: string, more: object = {}) => Object.assign(new Error(`connect ${code}`), { code, ...more });
  it.each([
    [
      'a name with two addresses, both refused',
      Object.assign(
        new AggregateError(
          [net('ECONNREFUSED', { address: '::1', port: 5432 }), net('ECONNREFUSED', { address: '127.0.0.1', port: 5432 })],
          '',
        ),
        { code: 'ECONNREFUSED' },
      ),
      'connect ECONNREFUSED; connect ECONNREFUSED',
      'Nothing accepts connections at [::1]:5432: is the PostgreSQL server running',
    ],
    [
      'a host name that does not resolve',
      net('ENOTFOUND', { hostname: 'db.internal' }),
      'connect ENOTFOUND',
      'The host name db.internal does not resolve: check the host of the connection string (or PGHOST).',
    ],
    [
      'a host that never answers',
      net('ETIMEDOUT', { address: '10.0.0.7', port: 5432 }),
      'connect ETIMEDOUT',
      'No answer from 10.0.0.7:5432: is the host of the connection string (or PGHOST) right',
    ],
    [
      'a wrong password',
      Object.assign(new Error('password authentication failed for user "shop"'), { code: '28P01' }),
      'password authentication failed',
      'check the user and password of the connection string (or PGUSER and PGPASSWORD)',
    ],
    [
      'a database that does not exist',
      Object.assign(new Error('database "shop" does not exist'), { code: '3D000' }),
      'does not exist',
      'create it (`createdb NAME`)',
    ],
  ])('%s', (_what, cause, said, hint) => {
    const error = new DatabaseError('migrate', cause);
    expect(error.message).toContain(said);
    expect(error.message).toContain(hint);
  });

  it('a statement the database refused gets no connection hint, nor does a timeout', () => {
    expect(new DatabaseError('record intent', Object.assign(new Error('refused by policy'), { code: 'P0001' })).message).toBe(
      '@pay/journal: the database failed: refused by policy (record intent)',
    );
    expect(new DatabaseError('migrate', net('ECONNREFUSED'), 'timed_out').message).toBe(
      '@pay/journal: the database did not answer in time (migrate)',
    );
  });
});
