/**
 * Security issue 15, item 7: the embedded server sees none of our secrets, and the application connects
 * as a role that owns its database and nothing more; clusters of earlier versions are brought into line.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrations } from '@helios/migrations';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from './embedded-postgres.js';

const quiet = { info: () => undefined, warn: () => undefined };
const SECRETS = { HELIO_ADAPTER_TOKEN: 'secret-adapter-value', HELIO_SDK_TOKEN: 'secret-sdk-value' };

/** Enterable by postgres (when root runs it as postgres), so the cluster stays in the data directory. */
async function scratchDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'helios-least-privilege-'));
  await chmod(dir, 0o755);
  return join(dir, '.helios');
}

async function withClient<T>(config: pg.ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const superuser = (server: EmbeddedPostgres, database = 'helios'): pg.ClientConfig => ({
  host: server.socketDir,
  port: server.port,
  user: 'postgres',
  database,
});

describe('a running embedded PostgreSQL', () => {
  let dataDir: string;
  let server: EmbeddedPostgres;
  beforeAll(async () => {
    dataDir = await scratchDataDir();
    Object.assign(process.env, SECRETS);
    try {
      server = await EmbeddedPostgres.start({ dataDir, logger: quiet });
    } finally {
      for (const name of Object.keys(SECRETS)) delete process.env[name];
    }
  });
  afterAll(async () => {
    await server?.stop();
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')('does not inherit our secrets', async () => {
    const environ = await readFile(`/proc/${server.pid}/environ`, 'utf8');
    const names = environ
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(0, entry.indexOf('=')));
    expect(environ).not.toContain('secret-');
    expect(names).not.toContain('HELIO_ADAPTER_TOKEN');
    // The allow-list, nothing more (TZ only when we have it).
    expect(names.filter((name) => name !== 'TZ').sort()).toEqual(['LC_ALL', 'PATH']);
  });

  it('gives the application a role that is no superuser and cannot run programs', async () => {
    const url = new URL(server.url);
    expect(url.username).toBe('helios_app');
    await withClient({ connectionString: server.url }, async (client) => {
      const { rows } = await client.query<{
        rolsuper: boolean;
        rolcreaterole: boolean;
        rolcreatedb: boolean;
      }>('SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user');
      expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
      const marker = join(tmpdir(), `helios-copy-program-${process.pid}`);
      await expect(client.query(`COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`)).rejects.toThrow(
        /permission denied|must be superuser|pg_execute_server_program/,
      );
      await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
      await expect(client.query(`SELECT pg_read_file('/etc/passwd')`)).rejects.toThrow(/permission denied/);
      await expect(client.query('CREATE ROLE intruder SUPERUSER')).rejects.toThrow(/must be superuser/);
      // …and owns its schema: it creates and drops what the migrations do.
      await client.query('CREATE TABLE owned_probe (id int); DROP TABLE owned_probe');
    });
  });

  it('lets the superuser in only through its Unix socket, never over TCP', async () => {
    await expect(
      withClient(
        { host: '127.0.0.1', port: server.port, user: 'postgres', password: '', database: 'postgres' },
        () => Promise.resolve(),
      ),
    ).rejects.toThrow(/no pg_hba.conf entry|password authentication failed|password/);
    const { rows } = await withClient(superuser(server), (client) =>
      client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user'),
    );
    expect(rows).toEqual([{ rolsuper: true }]);
  });
});

describe('a cluster made by an earlier version (superuser-owned schema, postgres.password)', () => {
  it('is taken over by the application role at the next start, and the old password opens nothing', async () => {
    const dataDir = await scratchDataDir();
    try {
      // Make the earlier layout: everything owned by the superuser, which had a password on disk.
      const first = await EmbeddedPostgres.start({ dataDir, logger: quiet });
      try {
        await withClient(superuser(first, 'postgres'), async (client) => {
          await client.query(`ALTER DATABASE helios OWNER TO postgres`);
          await client.query(`ALTER ROLE postgres PASSWORD 'old-superuser-password'`);
        });
        const migrate = new DataSource({
          type: 'postgres',
          host: first.socketDir,
          port: first.port,
          username: 'postgres',
          database: 'helios',
          migrations: [...migrations],
          migrationsTransactionMode: 'each',
          logging: false,
        });
        await migrate.initialize();
        await migrate.runMigrations();
        await migrate.query('CREATE SEQUENCE legacy_counter');
        await migrate.query('CREATE VIEW legacy_view AS SELECT 1 AS one');
        await migrate.destroy();
        await withClient(superuser(first, 'postgres'), (client) => client.query('DROP ROLE helios_app'));
      } finally {
        await first.stop();
      }
      await writeFile(join(dataDir, 'postgres.password'), 'old-superuser-password\n', { mode: 0o600 });

      const again = await EmbeddedPostgres.start({ dataDir, logger: quiet });
      try {
        const owners = await withClient(superuser(again), (client) =>
          client.query<{ owner: string; n: number }>(
            `SELECT owner, count(*)::int AS n FROM (
               SELECT pg_get_userbyid(c.relowner) AS owner FROM pg_class c
                 JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
               UNION ALL
               SELECT pg_get_userbyid(p.proowner) FROM pg_proc p
                 JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
               UNION ALL
               SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'helios'
             ) o GROUP BY owner`,
          ),
        );
        expect(owners.rows.map((row) => row.owner)).toEqual(['helios_app']);
        expect(owners.rows[0]?.n).toBeGreaterThan(20);
        await withClient({ connectionString: again.url }, async (client) => {
          const inserted = await client.query(
            `INSERT INTO instance_metadata (version) VALUES ('t') RETURNING id`,
          );
          expect(inserted.rowCount).toBe(1);
          await client.query(`SELECT nextval('legacy_counter'), * FROM legacy_view`);
          await client.query('DROP VIEW legacy_view');
        });
        // The application role can migrate the schema it took over: revert the last migration, re-apply it.
        const app = new DataSource({
          type: 'postgres',
          url: again.url,
          migrations: [...migrations],
          migrationsTransactionMode: 'each',
          logging: false,
        });
        await app.initialize();
        try {
          await app.undoLastMigration();
          expect((await app.runMigrations()).length).toBe(1);
        } finally {
          await app.destroy();
        }
        const oldPassword = withClient(
          {
            host: '127.0.0.1',
            port: again.port,
            user: 'postgres',
            password: 'old-superuser-password',
            database: 'helios',
          },
          () => Promise.resolve(),
        );
        await expect(oldPassword).rejects.toThrow();
        await expect(readFile(join(dataDir, 'postgres.password'))).rejects.toThrow(/ENOENT/);
      } finally {
        await again.stop();
      }
    } finally {
      await rm(join(dataDir, '..'), { recursive: true, force: true });
    }
  });
});
