// The journal's overhead per create: journal.payins.create (the intent committed before the
// request, the outcome and the create's event recorded after it) side by side with the client
// alone, against the sandbox over loopback HTTP, on PostgreSQL through pg and on the embedded
// PGlite. Every call creates a payin with a new reference_id; the sandbox runs in this process and
// its webhooks go to a receiver that only answers 204 (the same load for every contender).
import { createServer } from 'node:http';
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { startSandbox } from '@pay/sandbox';
import pg from 'pg';
import { floorCreate, floorPGlite, makeFloorTable } from './floor.mjs';
import { payinBodies } from './payin-body.mjs';
import { compare } from '../../../tools/bench.mjs';
import { postgresAvailable, startPostgres } from '@pay/test-support/postgres';

const merchant = { id: 'm_bench', secret: 'sk_test_bench' };
const sink = createServer((_req, res) => res.writeHead(204).end());
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${sink.address().port}/hooks`;
const sandbox = await startSandbox({ merchants: [merchant] });
// Without PostgreSQL installed, PGlite alone is measured.
const server = postgresAvailable ? await startPostgres() : undefined;
const pool = server && new pg.Pool({ connectionString: server.url, max: 4 });
try {
  const client = createClient({ baseUrl: sandbox.url, merchantId: merchant.id, secret: merchant.secret });
  const onPostgres = pool && (await openJournal({ client, database: pool, schema: 'bench' }));
  const onPGlite = await openJournal({ client }); // no database: the embedded default
  const body = payinBodies(webhookUrl);

  // Every contender must create what it is given, or the comparison means nothing.
  for (const create of [(b) => client.payins.create(b), onPostgres?.payins.create, onPGlite.payins.create].filter(Boolean)) {
    const answer = await create(body());
    const status = answer.data?.status ?? answer.transaction?.status;
    if (status !== 'new') throw new Error('a contender did not create its payin');
  }

  // The floor (floor.mjs): a row committed before the request, one after it.
  const floor = (query) => floorCreate(client, body, query);
  if (onPostgres) await makeFloorTable((sql) => pool.query(sql));
  const embedded = await floorPGlite();

  console.log(`@pay/journal create overhead against the sandbox over loopback HTTP (node ${process.version})`);
  await compare(
    'one payin created',
    ['client.payins.create alone', () => client.payins.create(body())],
    {
      ...(onPostgres && {
        'floor on PostgreSQL: a row before, one after': floor((text, params) => pool.query(text, params)),
        'journal.payins.create on PostgreSQL (pg)': () => onPostgres.payins.create(body()),
      }),
      'floor on PGlite: a row before, one after': floor((text, params) => embedded.query(text, params)),
      'journal.payins.create on PGlite (embedded)': () => onPGlite.payins.create(body()),
    },
    { rounds: 7, time: 300 },
  );
  await onPGlite.close();
  await embedded.close();
} finally {
  await pool?.end();
  await server?.stop();
  await sandbox.close();
  sink.close();
}
