import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { APP_ROLE } from './access-rules.js';
import { transferOwnership } from './ownership-transfer.js';
import { SUPERUSER } from './postgres-user.js';
import { scramVerifier } from './scram-verifier.js';
import { superuserClient, type SuperuserAccess } from './superuser-client.js';

/** Everything a role has, re-asserted at every start: whoever changed it, it is back to these. */
const APP_ROLE_ATTRIBUTES =
  "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT CONNECTION LIMIT -1 VALID UNTIL 'infinity'";

/**
 * Prepares the application's role for this run and returns its password: a fresh random one every
 * start, held only in memory (nothing on disk to read or plant). The role owns `database` (made if
 * missing) and, through that, its `public` schema; whatever an earlier version created there as the
 * superuser is handed over. The superuser loses any password an earlier version gave it.
 */
export async function prepareAppRole(server: SuperuserAccess, database: string): Promise<string> {
  const password = randomBytes(32).toString('base64url');
  await withClient(superuserClient(server, 'postgres'), async (client) => {
    await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD NULL`);
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
    const verb = role.rowCount === 0 ? 'CREATE' : 'ALTER';
    const verifier = client.escapeLiteral(scramVerifier(password));
    await client.query(`${verb} ROLE ${APP_ROLE} ${APP_ROLE_ATTRIBUTES} PASSWORD ${verifier}`);
    const name = client.escapeIdentifier(database);
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    await client.query(
      found.rowCount === 0
        ? `CREATE DATABASE ${name} OWNER ${APP_ROLE}`
        : `ALTER DATABASE ${name} OWNER TO ${APP_ROLE}`,
    );
  });
  await withClient(superuserClient(server, database), (client) =>
    transferOwnership(client, SUPERUSER, APP_ROLE),
  );
  return password;
}

async function withClient<T>(client: pg.Client, work: (client: pg.Client) => Promise<T>): Promise<T> {
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
