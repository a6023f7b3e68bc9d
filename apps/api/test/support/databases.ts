import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@helios/persistence/testing';

/** A place for the app's data: an embedded data dir, or a scratch database on the real server. */
export interface DatabaseTarget {
  readonly name: 'embedded' | 'external';
  /** Environment for a spawned API (HELIOS_DATA_DIR or DATABASE_URL). */
  readonly env: Record<string, string>;
  /** The `database` section for an in-process server. */
  readonly database: { url?: string; dataDir: string };
  dispose(): Promise<void>;
}

/** Real PostgreSQL from DATABASE_URL (CI sets it); integration tests also run against it when present. */
export const externalUrl = process.env.DATABASE_URL || undefined;

export async function tempDir(prefix = 'helios-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function embeddedTarget(): Promise<DatabaseTarget> {
  const dataDir = await tempDir();
  return {
    name: 'embedded',
    env: { HELIOS_DATA_DIR: dataDir },
    database: { dataDir },
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh database on the DATABASE_URL server, so test files never see each other's schema. */
export async function externalTarget(baseUrl: string): Promise<DatabaseTarget> {
  const scratch = await createScratchDatabase(baseUrl);
  const dataDir = await tempDir();
  return {
    name: 'external',
    env: { DATABASE_URL: scratch.url, HELIOS_DATA_DIR: dataDir },
    database: { url: scratch.url, dataDir },
    async dispose() {
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both targets when DATABASE_URL is set, else the embedded one only. */
export const targetFactories: readonly (readonly [string, () => Promise<DatabaseTarget>])[] = [
  ['embedded', embeddedTarget],
  ...(externalUrl ? [['external', () => externalTarget(externalUrl)] as const] : []),
];
