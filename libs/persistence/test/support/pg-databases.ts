/**
 * Databases for the integration tests: an embedded PostgreSQL (always) and, when DATABASE_URL is set, a
 * scratch database on that server (created per test file, dropped afterwards), each migrated to head on
 * a fresh DataSource. Mirrors apps/api/test/support/databases.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '@helios/migrations';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll } from 'vitest';
import { EmbeddedPostgres } from '../../src/embedded/embedded-postgres.js';
import { heliosEntityOptions } from '../../src/entities.js';
import { createScratchDatabase } from '../../src/testing/scratch-database.js';

/** A migrated database; `open()` gives further DataSources (separate pools, like separate processes). */
export interface TestDatabase {
  readonly url: string;
  readonly dataSource: DataSource;
  open(poolSize?: number): Promise<DataSource>;
  dispose(): Promise<void>;
}

const quiet = { info: () => undefined, warn: () => undefined };
const externalUrl = process.env.DATABASE_URL || undefined;

export async function openDataSource(url: string, poolSize = 10): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    ...heliosEntityOptions(),
    migrations: [...migrations],
    migrationsTransactionMode: 'each',
    poolSize,
    logging: false,
  });
  await dataSource.initialize();
  return dataSource;
}

async function migrated(url: string, cleanup: () => Promise<void>): Promise<TestDatabase> {
  const opened: DataSource[] = [];
  const open = async (poolSize?: number): Promise<DataSource> => {
    const dataSource = await openDataSource(url, poolSize);
    opened.push(dataSource);
    return dataSource;
  };
  const dataSource = await open();
  await dataSource.runMigrations();
  return {
    url,
    dataSource,
    open,
    async dispose() {
      for (const ds of opened) if (ds.isInitialized) await ds.destroy();
      await cleanup();
    },
  };
}

async function embeddedDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-persistence-'));
  const server = await EmbeddedPostgres.start({ dataDir, logger: quiet });
  return migrated(server.url, async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
}

async function externalDatabase(baseUrl: string): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(baseUrl);
  return migrated(scratch.url, () => scratch.drop());
}

/** Both targets when DATABASE_URL is set, else the embedded one only. */
export const databaseTargets: readonly (readonly [string, () => Promise<TestDatabase>])[] = [
  ['embedded', embeddedDatabase],
  ...(externalUrl ? [['external', () => externalDatabase(externalUrl)] as const] : []),
];

/**
 * The database of one `describe` block: made before its tests, disposed after them (after the block's
 * own afterAll hooks, which run first). The returned object reads through to it once it exists.
 */
export function sharedDatabase(makeDatabase: () => Promise<TestDatabase>): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await makeDatabase();
  });
  afterAll(async () => {
    await current?.dispose();
  });
  const made = (): TestDatabase => {
    if (current === undefined) throw new Error('the shared database is made in beforeAll');
    return current;
  };
  return {
    get url() {
      return made().url;
    },
    get dataSource() {
      return made().dataSource;
    },
    open: (poolSize) => made().open(poolSize),
    dispose: () => made().dispose(),
  };
}
