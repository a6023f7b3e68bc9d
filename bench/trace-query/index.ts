/**
 * The dashboard's trace list at scale (issue 21): 100,000 traces and 1,000,000 spans written by the
 * COPY path of bench/trace-ingest into the embedded PostgreSQL (the default product database), then
 * PgTraceStore.listTraces with each filter the dashboard offers, alone and combined, 40 times each
 * (first page of 50, newest first). Reports p50/p95 per filter and overall, and the plan of the slowest
 * filter. Target: p95 ≤ 100 ms. Also reports how the p95 grows from 10,000 to 100,000 traces.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, type Trace } from '@helios/core';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { migrations } from '../../migrations/src/index.ts';
import { EmbeddedPostgres } from '../../libs/persistence/src/embedded/embedded-postgres.ts';
import { heliosEntityOptions } from '../../libs/persistence/src/entities.ts';
import { PgTraceStore } from '../../libs/persistence/src/observability/pg-trace-store.ts';
import { type TraceFilter } from '../../libs/persistence/src/observability/trace-filter.ts';
import { fixtureTrace } from '../../libs/persistence/src/observability/trace-fixtures.ts';
import type { BenchResult } from '../run.ts';
import { copyTraces } from '../trace-ingest/copy-from.ts';

const TRACES = 100_000;
const SPANS = 10;
const CHUNK = 5_000;
const SESSIONS = 2_000;
const MODELS = ['claude-sonnet-4-5', 'gpt-5.1', 'gemini-3-pro', 'llama3.1'] as const;
const DAY_MS = 86_400_000;
const REPEATS = 40;
const TARGET_P95_MS = 100;

/** A deterministic spread: 30 days, 2,000 sessions, four models, 5 % errors, varied cost and latency. */
function traceAt(i: number, end: number): Trace {
  const startTime = end - Math.floor(((i * 7919) % TRACES) * ((30 * DAY_MS) / TRACES));
  const error = i % 20 === 0;
  return fixtureTrace({
    name: i % 3 === 0 ? 'reader' : 'writer',
    sessionId: `session-${i % SESSIONS}`,
    runId: newId(),
    modelId: MODELS[i % MODELS.length],
    startTime,
    durationMs: 40 + ((i * 31) % 9_000),
    status: error ? 'ERROR' : 'OK',
    ...(error ? { error: 'ProviderError: overloaded' } : {}),
    attributes: { preset: 'default' },
    spans: Array.from({ length: SPANS }, (_, s) => ({
      kind: s % 2 === 0 ? ('model.call' as const) : ('tool.Read' as const),
      durationMs: 4 + s,
      attributes: {},
      ...(s % 2 === 0
        ? { tokens: [1000 + s, 80, 0, 512] as const, costMicroUsd: BigInt(100 + ((i + s) % 5_000)) }
        : {}),
    })),
  });
}

async function fill(url: string, from: number, to: number, end: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let start = from; start < to; start += CHUNK) {
      const traces = Array.from({ length: Math.min(CHUNK, to - start) }, (_, k) => traceAt(start + k, end));
      await copyTraces(client, traces);
    }
  } finally {
    await client.end();
  }
}

function filters(end: number): Readonly<Record<string, TraceFilter>> {
  return {
    'no filter': {},
    'last 24 h': { from: new Date(end - DAY_MS), to: new Date(end + 1) },
    session: { sessionId: 'session-1234' },
    'status ERROR': { status: 'ERROR' },
    model: { modelId: 'gemini-3-pro' },
    'cost range': { minCostMicroUsd: 2_000n, maxCostMicroUsd: 2_500n },
    'latency ≥ 8 s': { minDurationMs: 8_000 },
    'has annotation': { hasAnnotation: true },
    'model + error + last 7 days': {
      modelId: 'gpt-5.1',
      status: 'ERROR',
      from: new Date(end - 7 * DAY_MS),
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function measure(
  store: PgTraceStore,
  end: number,
): Promise<{ perFilter: Record<string, number>; all: number[] }> {
  const perFilter: Record<string, number> = {};
  const all: number[] = [];
  for (const [name, filter] of Object.entries(filters(end))) {
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i += 1) {
      const started = performance.now();
      await store.listTraces({ ...filter, limit: 50 });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    perFilter[name] = Number(percentile(times, 95).toFixed(1));
    all.push(...times);
  }
  all.sort((a, b) => a - b);
  return { perFilter, all };
}

export default async function run(): Promise<BenchResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-trace-query-'));
  const server = await EmbeddedPostgres.start({
    dataDir,
    logger: { info: () => undefined, warn: () => undefined },
  });
  const dataSource = new DataSource({
    type: 'postgres',
    url: server.url,
    ...heliosEntityOptions(),
    migrations: [...migrations],
    migrationsTransactionMode: 'each',
    poolSize: 2,
    logging: false,
  });
  const logger = { warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) };
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    const store = new PgTraceStore(dataSource, { logger });
    const end = Date.UTC(2026, 11, 1);
    await fill(server.url, 0, TRACES / 10, end);
    await annotate(dataSource, 100);
    await dataSource.query(`ANALYZE`);
    const small = await measure(store, end);
    await fill(server.url, TRACES / 10, TRACES, end);
    await annotate(dataSource, 1_000);
    await dataSource.query(`ANALYZE`);
    const counts = (await dataSource.query(
      `SELECT (SELECT count(*) FROM helios_traces)::int AS t, (SELECT count(*) FROM helios_spans)::int AS s`,
    )) as { t: number; s: number }[];
    if (counts[0]?.t !== TRACES || counts[0]?.s !== TRACES * SPANS) {
      throw new Error(
        `expected ${TRACES} traces and ${TRACES * SPANS} spans, found ${JSON.stringify(counts[0])}`,
      );
    }
    const large = await measure(store, end);
    const slowest = Object.entries(large.perFilter).sort((a, b) => b[1] - a[1])[0];
    process.stdout.write(`  p95 per filter at ${TRACES} traces: ${JSON.stringify(large.perFilter)}\n`);
    process.stdout.write(`  slowest filter: ${slowest?.[0]}\n`);
    const plan = await planOf(dataSource, filters(end)[slowest?.[0] ?? 'no filter'] ?? {});
    process.stdout.write(`  its plan:\n${plan.map((line) => `    ${line}`).join('\n')}\n`);
    await store.close();
    const p95 = Number(percentile(large.all, 95).toFixed(1));
    return {
      metrics: {
        traces: TRACES,
        spans: TRACES * SPANS,
        'p50 ms (all filters)': Number(percentile(large.all, 50).toFixed(1)),
        'p95 ms (all filters)': p95,
        'p95 ms at 10,000 traces': Number(percentile(small.all, 95).toFixed(1)),
        ...Object.fromEntries(Object.entries(large.perFilter).map(([k, v]) => [`p95 ms: ${k}`, v])),
      },
      ratios: { 'p95 ÷ 100 ms target (≤ 1)': Number((p95 / TARGET_P95_MS).toFixed(2)) },
    };
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `count` annotations on traces spread over the set (the dashboard's "has annotation" filter). */
async function annotate(dataSource: DataSource, count: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO helios_annotations (id, subject_id, label, author_kind, metadata)
     SELECT gen_random_uuid(), t.id, 'reviewed', 'HUMAN', '{}'::jsonb
       FROM (SELECT id FROM helios_traces ORDER BY id LIMIT $1) t`,
    [count],
  );
}

/** The plan PostgreSQL runs for `filter`: the store's own statement, captured and EXPLAIN ANALYZEd. */
async function planOf(dataSource: DataSource, filter: TraceFilter): Promise<string[]> {
  let captured: { sql: string; params: unknown[] } | undefined;
  const capturing = {
    query: (sql: string, params: unknown[]) => {
      captured = { sql, params };
      return Promise.resolve([]);
    },
  } as unknown as DataSource;
  const logger = { warn: () => undefined, error: () => undefined };
  await new PgTraceStore(capturing, { logger }).listTraces({ ...filter, limit: 50 });
  if (captured === undefined) return ['(no statement captured)'];
  const rows = (await dataSource.query(`EXPLAIN (ANALYZE, COSTS OFF) ${captured.sql}`, captured.params)) as {
    'QUERY PLAN': string;
  }[];
  return rows.map((row) => row['QUERY PLAN']);
}
