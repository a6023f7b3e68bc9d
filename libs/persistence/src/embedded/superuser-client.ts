import pg from 'pg';
import { SUPERUSER } from './postgres-user.js';

/** Where the superuser reaches the server: its Unix socket, never TCP. */
export interface SuperuserAccess {
  readonly socketDir: string;
  readonly port: number;
}

export function superuserClient(server: SuperuserAccess, database: string): pg.Client {
  return new pg.Client({ host: server.socketDir, port: server.port, user: SUPERUSER, database });
}
