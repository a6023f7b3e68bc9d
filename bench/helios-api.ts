/**
 * Our API as the governance benches run it: the built apps/api/dist/main.js in its own process, on its
 * embedded PostgreSQL in a scratch data directory, with a given governance policy and its adapter
 * listener (the SDK sideband) on a free port. Also the limit-store fill the governance matrix uses:
 * charges written straight into `limit_charges` through the embedded server's superuser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedSuperuserClient, freePort } from '../libs/persistence/src/testing/index.ts';
import { cpuMicros, descendantsCpuMicros } from './process-cpu.ts';

export interface HeliosApi {
  /** The adapter listener's origin, e.g. `http://127.0.0.1:41234`. */
  readonly sdkUrl: string;
  readonly token: string;
  readonly pid: number;
  readonly dataDir: string;
  /** CPU µs the API process has spent so far, and its PostgreSQL (its descendants, exited ones included). */
  cpu(): { api: number; postgres: number };
  /** Runs `fn` with a connected superuser client of the embedded server (no password: Unix socket). */
  sql<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export async function waitFor(url: string, child?: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`exited before ${url}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

/** Starts the API with `policy` (a `helio.yaml` document; JSON is YAML) and waits until it answers. */
export async function startHeliosApi(policy: Record<string, unknown>, token: string): Promise<HeliosApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-bench-governance-'));
  const sdkPort = await freePort();
  const apiPort = await freePort();
  const document = { ...policy, sdk: { enabled: true, port: sdkPort } };
  await writeFile(join(dataDir, 'helio.yaml'), JSON.stringify(document, null, 2));
  await writeFile(
    join(dataDir, 'helios.yaml'),
    `governance:\n  policy: ${join(dataDir, 'helio.yaml')}\nlog:\n  level: warn\n`,
  );
  const main = fileURLToPath(new URL('../apps/api/dist/main.js', import.meta.url));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HELIOS_DATA_DIR: dataDir,
    HELIOS_CONFIG: join(dataDir, 'helios.yaml'),
  };
  delete env.DATABASE_URL;
  Object.assign(env, { PORT: String(apiPort), HELIO_ADAPTER_TOKEN: token });
  const api = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => api.once('exit', r));
  const stop = async (): Promise<void> => {
    if (api.exitCode === null) api.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${apiPort}/readyz`, api);
    await waitFor(`http://127.0.0.1:${sdkPort}/healthz`, api);
  } catch (error) {
    await stop();
    throw error;
  }
  const pid = api.pid as number;
  return {
    sdkUrl: `http://127.0.0.1:${sdkPort}`,
    token,
    pid,
    dataDir,
    cpu: () => ({
      api: cpuMicros(pid),
      postgres: descendantsCpuMicros(pid),
    }),
    sql: async (fn) => {
      const client = await embeddedSuperuserClient(dataDir);
      await client.connect();
      try {
        return await fn(client as SqlClient);
      } finally {
        await client.end();
      }
    },
    stop,
  };
}

/** Reservation ids of the fill's charges: the per-round trim keeps these and drops the run's own. */
const FILL_PREFIX = 'bench-fill-';

/**
 * Puts `count` charges of 1 call into the rate bucket that the committed evaluation `evaluationId`
 * charged (so the bucket row was created by the store itself, with the rule's window), spread over the
 * last `spreadMs` (inside the window), and marks the bucket active now. Every earlier fill charge of the
 * bucket goes first. This matches what the store (libs/persistence pg-limit-store.ts, migration
 * GovernanceStores) writes for a committed call: one `limit_charges` row per call, amount 1 for a rate,
 * and the bucket row's running sums over them (LimitRunningSums). Returns the bucket id.
 */
export async function fillRateBucket(
  api: HeliosApi,
  evaluationId: string,
  count: number,
  spreadMs: number,
): Promise<string> {
  return api.sql(async (client) => {
    const found = await client.query(
      `SELECT "bucket_id" FROM "limit_charge_entries" WHERE "reservation_id" = $1`,
      [evaluationId],
    );
    const bucketId = found.rows[0]?.['bucket_id'];
    if (typeof bucketId !== 'string') throw new Error(`no limit charge for evaluation ${evaluationId}`);
    const nowMs = Date.now();
    await handBack(client, [bucketId]);
    await client.query('BEGIN');
    await client.query(`DELETE FROM "limit_charges" WHERE "bucket_id" = $1 AND "reservation_id" LIKE $2`, [
      bucketId,
      `${FILL_PREFIX}%`,
    ]);
    await client.query(
      `INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
       SELECT $1, $2 || g, 1, $3::bigint - (g * $4::bigint) / $5::bigint FROM generate_series(1, $5::int) g`,
      [bucketId, FILL_PREFIX, nowMs, spreadMs, count],
    );
    await client.query(`UPDATE "limit_buckets" SET "last_activity_ms" = $2 WHERE "bucket_id" = $1`, [
      bucketId,
      nowMs,
    ]);
    await resum(client, [bucketId]);
    await client.query('COMMIT');
    return bucketId;
  });
}

/**
 * Drops the charges the run itself added to the filled buckets (keeping the fill), then vacuums the
 * table so the next round's index scans do not wade through the deleted rows: each round starts from
 * the fill's count, not from the fill plus every earlier round's calls.
 */
export async function trimToFill(api: HeliosApi, bucketIds: readonly string[]): Promise<void> {
  await api.sql(async (client) => {
    await handBack(client, bucketIds);
    await client.query(
      `DELETE FROM "limit_charges" WHERE "bucket_id" = ANY($1::text[]) AND "reservation_id" NOT LIKE $2`,
      [bucketIds, `${FILL_PREFIX}%`],
    );
    await resum(client, bucketIds);
    await client.query('VACUUM (ANALYZE) "limit_charges"');
  });
}

/**
 * Asks the API process that owns these buckets (its local limit authority decides them in memory) to
 * hand them back, as another process would (NOTIFY on the owner's channel), and waits until it has: the
 * rows are then the truth, and may be changed here. The next call claims them again, rows and all.
 */
async function handBack(client: SqlClient, bucketIds: readonly string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await client.query(
      `SELECT DISTINCT "owner" FROM "limit_buckets" WHERE "bucket_id" = ANY($1::text[]) AND "owner" IS NOT NULL`,
      [bucketIds],
    );
    if (rows.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the API did not hand back ${bucketIds.join(', ')}`);
    for (const row of rows)
      await client.query(`SELECT pg_notify('helios_limits_' || $1::text, $2)`, [
        row['owner'],
        JSON.stringify(bucketIds),
      ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Sets the buckets' running sums to their rows again, as every store statement keeps them, and lifts
 * the hand-back's cooldown: the API claims each bucket again at its next call.
 */
async function resum(client: SqlClient, bucketIds: readonly string[]): Promise<void> {
  await client.query(
    `UPDATE "limit_buckets" b SET
       "charged" = coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"), 0),
       "charge_count" = (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"),
       "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"),
       "demoted_at_ms" = NULL
     WHERE b."bucket_id" = ANY($1::text[])`,
    [bucketIds],
  );
  await client.query(
    `UPDATE "limit_buckets" b SET "live_until_ms" = "helios_limit_live_until"(b) WHERE b."bucket_id" = ANY($1::text[])`,
    [bucketIds],
  );
}
