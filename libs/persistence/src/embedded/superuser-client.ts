import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { SUPERUSER } from './postgres-user.js';

/** The file in a data directory naming the server that owns it: its pid, port and socket directory. */
export const LOCK_FILE = 'embedded-postgres.lock';

/** Where the superuser reaches the server: its Unix socket, never TCP. */
export interface SuperuserAccess {
  readonly socketDir: string;
  readonly port: number;
}

export function superuserClient(server: SuperuserAccess, database: string): pg.Client {
  return new pg.Client({ host: server.socketDir, port: server.port, user: SUPERUSER, database });
}

/**
 * A superuser client of the embedded server running on `dataDir`, found through its lock file (tools,
 * tests and benchmarks that inspect what the API wrote; the API itself never holds one).
 */
export async function embeddedSuperuserClient(dataDir: string, database = 'helios'): Promise<pg.Client> {
  const lock = JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')) as SuperuserAccess;
  return superuserClient(lock, database);
}
