import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Binaries } from './binaries.js';
import { EmbeddedPostgresError } from './errors.js';
import { type RunAs } from './postgres-user.js';
import { openPrivateAppend, replacePrivateFile } from './private-files.js';
import { stopPostmaster } from './process-utils.js';
import { serverEnvironment } from './server-environment.js';
import { ensureSocketDirectory } from './socket-directory.js';
import { superuserClient } from './superuser-client.js';

/** Everything needed to start the server on its cluster, the first time and after a crash. */
export interface PostmasterSpec {
  readonly binaries: Binaries;
  /** PGDATA. */
  readonly clusterDir: string;
  /** Holds the log (`postgres.log`) and the owner lock. */
  readonly dataDir: string;
  readonly lockPath: string;
  readonly port: number;
  /** The Unix socket's directory: the superuser's only way in. */
  readonly socketDir: string;
  readonly runAs: RunAs;
  readonly startTimeoutMs: number;
}

/**
 * Starts the postmaster, records it in the owner lock and waits (bounded) until it accepts connections;
 * on any failure, or when `signal` aborts, the server it started is stopped again.
 */
export async function launchPostmaster(spec: PostmasterSpec, signal?: AbortSignal): Promise<ChildProcess> {
  await ensureSocketDirectory(spec.socketDir, spec.runAs);
  const child = await spawnServer(spec);
  try {
    await replacePrivateFile(
      spec.lockPath,
      JSON.stringify({
        ownerPid: process.pid,
        postgresPid: child.pid,
        port: spec.port,
        socketDir: spec.socketDir,
      }),
    );
    await waitUntilAccepting(child, spec, signal);
    return child;
  } catch (error) {
    if (child.pid !== undefined) await stopPostmaster(child.pid, 5_000);
    throw error;
  }
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function spawnServer(spec: PostmasterSpec): Promise<ChildProcess> {
  // The log is a file, not a pipe: the server must keep running unharmed if its owner dies.
  const logFile = await openPrivateAppend(join(spec.dataDir, 'postgres.log'));
  try {
    const child = spawn(
      spec.binaries.postgres,
      [
        '-D',
        spec.clusterDir,
        '-p',
        String(spec.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${spec.socketDir}`,
        '-c',
        'unix_socket_permissions=0700',
        // The launcher's default one-minute round lets a queue table (pending_evaluations) swell for a
        // minute between passes under load; this database serves one application.
        '-c',
        'autovacuum_naptime=5s',
      ],
      {
        ...spec.runAs,
        // Its own process group: a Ctrl-C reaches us first, and the backends can be found after a crash.
        detached: true,
        // Our working directory may be one postgres cannot enter (a private checkout).
        cwd: dirname(spec.clusterDir),
        stdio: ['ignore', logFile.fd, logFile.fd],
        env: serverEnvironment(),
      },
    );
    await new Promise<void>((resolveSpawn, reject) => {
      child.once('spawn', resolveSpawn);
      child.once('error', reject);
    });
    child.unref();
    return child;
  } finally {
    await logFile.close();
  }
}

async function waitUntilAccepting(
  child: ChildProcess,
  spec: PostmasterSpec,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + spec.startTimeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new EmbeddedPostgresError('embedded PostgreSQL start cancelled');
    if (hasExited(child)) {
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL exited during start (code ${child.exitCode ?? child.signalCode}); see ${join(spec.dataDir, 'postgres.log')}:\n${await logTail(spec.dataDir)}`,
      );
    }
    const client = superuserClient(spec, 'postgres');
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      lastError = error;
      await sleep(100);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new EmbeddedPostgresError(
    `embedded PostgreSQL did not accept connections within ${spec.startTimeoutMs} ms`,
    { cause: lastError },
  );
}

async function logTail(dataDir: string): Promise<string> {
  const text = await readFile(join(dataDir, 'postgres.log'), 'utf8').catch(() => '');
  return text.split('\n').slice(-15).join('\n');
}
