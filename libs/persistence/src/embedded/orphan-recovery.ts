import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { commandLine, isAlive, stopPostmaster } from './process-utils.js';

export interface OrphanLogger {
  warn(message: string): void;
}

/** A postmaster still running on our cluster belongs to a crashed owner (we hold the lock): stop it. */
export async function recoverOrphan(clusterDir: string, log: OrphanLogger): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  const cmd = isAlive(pid) ? await commandLine(pid) : undefined;
  if (cmd?.includes('postgres') && cmd.includes(clusterDir)) {
    log.warn(`stopping orphaned embedded PostgreSQL (pid ${pid}) left by a process that did not shut down`);
    await stopPostmaster(pid, 15_000);
  } else if (cmd !== undefined) {
    // The pid was reused by an unrelated process; PostgreSQL would refuse to start over a live pid.
    await rm(pidFile, { force: true });
  }
}
