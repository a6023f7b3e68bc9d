/**
 * Trace ingest (issue 21): traces and spans per second written into real PostgreSQL through
 * PgTraceStore, against the floor of the same rows written by `COPY … FROM STDIN` with no store logic
 * (copy-from.ts, pg-copy-streams), side by side in one run on one database. Target: store ≥ 0.5× the floor.
 *
 * The tables first get BASELINE_TRACES traces of history (by COPY), analysed; each measurement then
 * adds TRACES traces of SPANS spans each (fresh ids) and counts them back: a lost trace or span fails
 * the run. The tables grow through the run, alike for both sides (they alternate).
 * - store: the traces are offered to `onTrace` PER_TICK at a time, the event loop turning between
 *   (runs continue while the writer works); timed from the first offer until `close()` resolves, i.e.
 *   until every trace is committed. The queue's capacity is the whole set, so nothing overflows; the
 *   deepest queue seen is reported.
 * - floor: the same traces turned into COPY text and sent in one transaction (traces, then spans).
 * After a discarded warm-up of each, ROUNDS rounds alternate which goes first; figures are medians.
 *
 * Database: DATABASE_URL's server (a scratch database on it) when set, else an embedded PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Trace } from '@helios/core';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../../migrations/src/index.ts';
import { EmbeddedPostgres } from '../../libs/persistence/src/embedded/embedded-postgres.ts';
import { heliosEntityOptions } from '../../libs/persistence/src/entities.ts';
import { PgTraceStore } from '../../libs/persistence/src/observability/pg-trace-store.ts';
import { typicalTrace } from '../../libs/persistence/src/observability/trace-fixtures.ts';
import { createScratchDatabase } from '../../libs/persistence/src/testing/scratch-database.ts';
import { median } from '../median.ts';
import type { BenchResult } from '../run.ts';
import { copyTraces } from './copy-from.ts';

const TRACES = 20_000;
const SPANS = 10;
const WARM_UP_TRACES = 2_000;
/** Traces already stored before the first measurement. */
const BASELINE_TRACES = 20_000;
const ROUNDS = 5;
const PER_TICK = 100;
const TARGET_RATIO = 0.5;

interface Target {
  readonly url: string;
  readonly label: string;
  dispose(): Promise<void>;
}

async function target(): Promise<Target> {
  const external = process.env.DATABASE_URL || undefined;
  if (external !== undefined) {
    const scratch = await createScratchDatabase(external);
    return { url: scratch.url, label: 'DATABASE_URL', dispose: () => scratch.drop() };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-trace-ingest-'));
  const quiet = { info: () => undefined, warn: () => undefined };
  const server = await EmbeddedPostgres.start({ dataDir, logger: quiet });
  return {
    url: server.url,
    label: 'embedded',
    async dispose() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function makeTraces(count: number): Trace[] {
  const base = Date.now();
  return Array.from({ length: count }, (_, i) => typicalTrace(SPANS, base + i));
}

interface Measured {
  readonly ms: number;
  readonly maxQueued: number;
  readonly offerUs: number;
}

async function viaStore(dataSource: DataSource, traces: readonly Trace[]) {
  const logger = { warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };
  const store = new PgTraceStore(dataSource, { logger, capacity: traces.length });
  let maxQueued = 0;
  let offering = 0;
  const started = performance.now();
  for (let i = 0; i < traces.length; i += PER_TICK) {
    const offerStart = performance.now();
    for (const trace of traces.slice(i, i + PER_TICK)) store.onTrace(trace);
    offering += performance.now() - offerStart;
    maxQueued = Math.max(maxQueued, store.stats().queued);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await store.close();
  const ms = performance.now() - started;
  const stats = store.stats();
  if (stats.dropped > 0 || stats.written !== traces.length) {
    throw new Error(`the store lost traces: ${JSON.stringify(stats)}`);
  }
  return { ms, maxQueued, offerUs: (offering * 1000) / traces.length } satisfies Measured;
}

async function viaCopy(url: string, traces: readonly Trace[]): Promise<Measured> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await copyTraces(client, traces);
    return { ms: performance.now() - started, maxQueued: 0, offerUs: 0 };
  } finally {
    await client.end();
  }
}

/** Fails the run unless every trace of `traces` and every one of their spans is stored. */
async function checkStored(dataSource: DataSource, traces: readonly Trace[], what: string): Promise<void> {
  const ids = traces.map((trace) => trace.id);
  const rows = (await dataSource.query(
    `SELECT (SELECT count(*) FROM "helios_traces" WHERE "id" = ANY($1::uuid[]))::int AS t,
            (SELECT count(*) FROM "helios_spans" WHERE "trace_id" = ANY($1::uuid[]))::int AS s`,
    [ids],
  )) as { t: number; s: number }[];
  const { t, s } = rows[0] ?? { t: -1, s: -1 };
  if (t !== ids.length || s !== ids.length * SPANS) {
    throw new Error(
      `${what}: ${t} traces and ${s} spans stored, expected ${ids.length} and ${ids.length * SPANS}`,
    );
  }
}

export default async function run(): Promise<BenchResult> {
  const db = await target();
  const dataSource = new DataSource({
    type: 'postgres',
    url: db.url,
    ...heliosEntityOptions(),
    migrations: [...migrations],
    migrationsTransactionMode: 'each',
    poolSize: 4,
    logging: false,
  });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    // History first, analysed: the foreign-key checks' plans are then those of a table in use. (On an
    // empty, freshly analysed table they scan helios_traces for every span as it fills: an artefact.)
    await viaCopy(db.url, makeTraces(BASELINE_TRACES));
    await dataSource.query(`ANALYZE "helios_traces", "helios_spans"`);
    const measure = async (side: 'store' | 'floor', count: number): Promise<Measured> => {
      const traces = makeTraces(count);
      const result = side === 'store' ? await viaStore(dataSource, traces) : await viaCopy(db.url, traces);
      await checkStored(dataSource, traces, side);
      return result;
    };
    await measure('floor', WARM_UP_TRACES);
    await measure('store', WARM_UP_TRACES);
    const store: Measured[] = [];
    const floor: Measured[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? (['floor', 'store'] as const) : (['store', 'floor'] as const);
      for (const side of order) (side === 'store' ? store : floor).push(await measure(side, TRACES));
      const last = (list: Measured[]): number => Math.round(TRACES / ((list.at(-1)?.ms ?? 0) / 1000));
      process.stdout.write(
        `  round ${round + 1}: store ${last(store)} traces/s, COPY ${last(floor)} traces/s\n`,
      );
    }
    const perSecond = (list: readonly Measured[]): number => median(list.map((m) => TRACES / (m.ms / 1000)));
    const ratios = store.map((m, i) => (floor[i]?.ms ?? 0) / m.ms);
    const ratio = Number(median(ratios).toFixed(2));
    if (ratio < TARGET_RATIO) process.stdout.write(`  below the target: ${ratio} < ${TARGET_RATIO}\n`);
    return {
      metrics: {
        [`store traces/s (${db.label})`]: Math.round(perSecond(store)),
        'store spans/s': Math.round(perSecond(store) * SPANS),
        'COPY floor traces/s': Math.round(perSecond(floor)),
        'COPY floor spans/s': Math.round(perSecond(floor) * SPANS),
        'store deepest queue (traces)': Math.max(...store.map((m) => m.maxQueued)),
        'onTrace µs per trace': Number(median(store.map((m) => m.offerUs)).toFixed(2)),
        'traces or spans lost': 0,
      },
      ratios: { 'store ÷ COPY floor (≥ 0.5)': ratio },
    };
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await db.dispose();
  }
}
