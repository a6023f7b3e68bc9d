import { migrations } from '@helios/migrations';
import { DataSource } from 'typeorm';
import { type HeliosConfig } from '../config/config.schema.js';
import { withTimeout } from '../common/with-timeout.js';
import { EmbeddedPostgres, heliosEntityOptions, type EmbeddedLogger } from '@helios/persistence';

export type DatabaseKind = 'embedded' | 'external';

/** The database the app runs on: an initialised DataSource and, when embedded, the server under it. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly dataSource: DataSource;
  /** host:port/database, never with credentials, for logs and messages. */
  readonly location: string;
  /**
   * Why the database cannot answer right now when we know it without asking (the embedded server is
   * being restarted after a crash), else undefined. An external database is never restarted by us: the
   * pool reconnects once it is back.
   */
  unavailableReason(): string | undefined;
  close(): Promise<void>;
}

export class DatabaseConnectError extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
  constructor(location: string, cause: unknown) {
    super(
      `cannot connect to the database at ${location}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'DatabaseConnectError';
  }
}

/** Arbitrary constant key for the advisory lock that serialises migration runs across processes. */
const MIGRATION_LOCK_KEY = 4_711_000_001;

const CLOSE_TIMEOUT_MS = 5_000;

export function dataSourceFor(url: string, options: HeliosConfig['database']): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    ...heliosEntityOptions(),
    migrations: [...migrations],
    migrationsTransactionMode: 'each',
    poolSize: options.poolSize,
    connectTimeoutMS: options.connectTimeoutMs,
    applicationName: 'helios-api',
    logging: false,
  });
}

/** Opens the configured database (starting the embedded one when no URL is set). Runs no migrations. */
export async function openDatabase(
  options: HeliosConfig['database'],
  logger: EmbeddedLogger,
): Promise<Database> {
  const embedded =
    options.url === undefined
      ? await EmbeddedPostgres.start({ dataDir: options.dataDir, logger })
      : undefined;
  const url = embedded?.url ?? (options.url as string);
  const location = describeLocation(url);
  const dataSource = dataSourceFor(url, options);
  try {
    await dataSource.initialize();
  } catch (error) {
    await embedded?.stop();
    throw new DatabaseConnectError(location, error);
  }
  return {
    kind: embedded ? 'embedded' : 'external',
    dataSource,
    location,
    unavailableReason: () => embedded?.unavailableReason,
    async close() {
      try {
        // A query stuck on a lock must not hold shutdown forever; the embedded server's fast
        // shutdown ends such backends anyway.
        if (dataSource.isInitialized)
          await withTimeout(dataSource.destroy(), CLOSE_TIMEOUT_MS, 'closing the pool');
      } finally {
        await embedded?.stop();
      }
    },
  };
}

/** Applies pending migrations under an advisory lock, so concurrent starts never run one twice. */
export async function migrateUp(dataSource: DataSource): Promise<string[]> {
  return withMigrationLock(dataSource, async () => (await dataSource.runMigrations()).map((m) => m.name));
}

/** Reverts the most recent migration; returns false when there was none to revert. */
export async function migrateDown(dataSource: DataSource): Promise<boolean> {
  return withMigrationLock(dataSource, async () => {
    const before = await appliedMigrationCount(dataSource);
    if (before === 0) return false;
    await dataSource.undoLastMigration();
    return true;
  });
}

/** Number of this build's migrations not yet applied. */
export async function pendingMigrationCount(dataSource: DataSource): Promise<number> {
  const applied = new Set(await appliedMigrationNames(dataSource));
  return dataSource.migrations.filter((m) => !applied.has(m.name ?? m.constructor.name)).length;
}

async function appliedMigrationCount(dataSource: DataSource): Promise<number> {
  return (await appliedMigrationNames(dataSource)).length;
}

async function appliedMigrationNames(dataSource: DataSource): Promise<string[]> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const exists = (await dataSource.query(`SELECT to_regclass($1) AS t`, [table])) as { t: string | null }[];
  if (!exists[0]?.t) return [];
  const rows = (await dataSource.query(`SELECT name FROM "${table}" ORDER BY id`)) as { name: string }[];
  return rows.map((r) => r.name);
}

async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/** host:port/database of a URL, without user or password. */
export function describeLocation(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
