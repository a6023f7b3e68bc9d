/**
 * A PostgreSQL server on which a test may create and drop whole databases: DATABASE_URL's server when
 * it is set, else an embedded server reached as its superuser through the Unix socket (the embedded
 * application role may not create databases).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/embedded/embedded-postgres.js';

export interface ScratchServer {
  /** Connects as a role that may CREATE DATABASE (createScratchDatabase's `serverUrl`). */
  readonly url: string;
  stop(): Promise<void>;
}

const quiet = { info: () => undefined, warn: () => undefined };

export async function scratchServer(): Promise<ScratchServer> {
  const external = process.env.DATABASE_URL || undefined;
  if (external !== undefined) return { url: external, stop: async () => undefined };
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-persistence-'));
  const server = await EmbeddedPostgres.start({ dataDir, logger: quiet });
  const socket = encodeURIComponent(server.socketDir);
  return {
    url: `postgresql://postgres@localhost:${server.port}/postgres?host=${socket}`,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
