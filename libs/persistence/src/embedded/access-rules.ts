import { join } from 'node:path';
import { type RunAs, SUPERUSER } from './postgres-user.js';
import { replacePrivateFile } from './private-files.js';

/** The role the application connects as: it owns its database and nothing else. */
export const APP_ROLE = 'helios_app';

/**
 * pg_hba.conf: the superuser only over the Unix socket (in a 0700 directory, so only the server's
 * user and root reach it; no password exists that could leak), the application's role only to its
 * database over loopback with its password; every other connection matches no line and is refused.
 */
export function accessRules(database: string): string {
  return [
    '# Written by Helios at every start of its embedded PostgreSQL: changes here are overwritten.',
    `local all ${SUPERUSER} trust`,
    `host "${database}" ${APP_ROLE} 127.0.0.1/32 scram-sha-256`,
    '',
  ].join('\n');
}

/** Replaces the cluster's pg_hba.conf (also the one initdb or an earlier version wrote). */
export async function writeAccessRules(clusterDir: string, database: string, runAs: RunAs): Promise<void> {
  await replacePrivateFile(join(clusterDir, 'pg_hba.conf'), accessRules(database), runAs);
}
