/**
 * The trace list's filters (each at both sides of its edge), paging, and the rollups, on a known data
 * set of five traces in real PostgreSQL.
 */
import { InvalidArgumentError, type SpanStatus, type Trace } from '@helios/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgAnnotationStore } from './pg-annotation-store.js';
import { PgTraceStore } from './pg-trace-store.js';
import { fixtureTrace } from './trace-fixtures.js';
import { type TraceFilter } from './trace-filter.js';

const quiet = { warn: () => undefined, error: () => undefined };
const BIG = 2n ** 60n;
const day = (d: number, hour = 0): number => Date.UTC(2030, 0, d, hour);

interface Row {
  readonly name: string;
  readonly model?: string;
  readonly session?: string;
  readonly start: number;
  readonly durationMs: number;
  readonly status: SpanStatus;
  readonly cost: bigint;
  readonly tokens: readonly [number, number, number, number];
}

/** T1…T5, oldest first. */
const DATA: readonly Row[] = [
  {
    name: 'alpha',
    model: 'm1',
    session: 's1',
    start: day(1),
    durationMs: 100,
    status: 'OK',
    cost: 1_000n,
    tokens: [10, 20, 1, 2],
  },
  {
    name: 'alpha',
    model: 'm1',
    session: 's2',
    start: day(1, 12),
    durationMs: 200,
    status: 'ERROR',
    cost: 2_000n,
    tokens: [100, 0, 0, 0],
  },
  {
    name: 'beta',
    model: 'm2',
    session: 's1',
    start: day(2),
    durationMs: 300,
    status: 'OK',
    cost: 3_000n,
    tokens: [1, 1, 1, 1],
  },
  { name: 'beta', start: day(2, 6), durationMs: 400, status: 'OK', cost: 0n, tokens: [0, 0, 0, 0] },
  {
    name: 'gamma',
    model: 'm2',
    session: 's3',
    start: day(3),
    durationMs: 1_000,
    status: 'ERROR',
    cost: BIG,
    tokens: [5, 5, 5, 5],
  },
];

function traceOf(row: Row): Trace {
  return fixtureTrace({
    name: row.name,
    ...(row.model === undefined ? {} : { modelId: row.model }),
    ...(row.session === undefined ? {} : { sessionId: row.session }),
    startTime: row.start,
    durationMs: row.durationMs,
    ...(row.status === 'ERROR' ? { error: 'failed' } : {}),
    spans: [{ tokens: row.tokens, costMicroUsd: row.cost }],
  });
}

describe.each(databaseTargets)('PgTraceStore queries on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgTraceStore;
  let traces: Trace[];

  /** The T-numbers (1-based) a filter lists, in the order listed. */
  const listed = async (filter: TraceFilter): Promise<number[]> => {
    const page = await store.listTraces({ ...filter, limit: 100 });
    return page.items.map((item) => traces.findIndex((trace) => trace.id === item.id) + 1);
  };

  beforeAll(async () => {
    store = new PgTraceStore(db.dataSource, { logger: quiet });
    traces = DATA.map(traceOf);
    for (const trace of traces) store.onTrace(trace);
    await store.flush();
    const annotations = new PgAnnotationStore(db.dataSource);
    await annotations.upsertAnnotation({ subjectId: traces[0]!.id, label: 'good', authorKind: 'HUMAN' });
    await annotations.upsertAnnotation({
      subjectId: traces[2]!.spans[0]!.id,
      label: 'bad',
      authorKind: 'MODEL',
    });
  });

  it('lists newest first, without spans, with every field of the trace', async () => {
    expect(await listed({})).toEqual([5, 4, 3, 2, 1]);
    const { spans: _spans, ...summary } = traces[4]!;
    expect((await store.listTraces({ limit: 1 })).items).toEqual([summary]);
  });

  it('pages with limit and offset, saying whether more follow', async () => {
    const first = await store.listTraces({ limit: 2 });
    expect(first.items.map((item) => item.id)).toEqual([traces[4]!.id, traces[3]!.id]);
    expect(first).toMatchObject({ hasMore: true, nextOffset: 2 });
    const last = await store.listTraces({ limit: 2, offset: 4 });
    expect(last.items.map((item) => item.id)).toEqual([traces[0]!.id]);
    expect(last).toMatchObject({ hasMore: false, nextOffset: undefined });
    expect(await store.listTraces({ limit: 5 })).toMatchObject({ hasMore: false });
    await expect(store.listTraces({ limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('filters on time: from inclusive, to exclusive', async () => {
    expect(await listed({ from: new Date(day(1, 12)) })).toEqual([5, 4, 3, 2]);
    expect(await listed({ from: new Date(day(1, 12) + 1) })).toEqual([5, 4, 3]);
    expect(await listed({ to: new Date(day(2)) })).toEqual([2, 1]);
    expect(await listed({ to: new Date(day(2) + 1) })).toEqual([3, 2, 1]);
    expect(await listed({ from: new Date(day(2)), to: new Date(day(3)) })).toEqual([4, 3]);
  });

  it('filters on session, status, model and name', async () => {
    expect(await listed({ sessionId: 's1' })).toEqual([3, 1]);
    expect(await listed({ sessionId: 'none' })).toEqual([]);
    expect(await listed({ status: 'ERROR' })).toEqual([5, 2]);
    expect(await listed({ status: 'OK' })).toEqual([4, 3, 1]);
    expect(await listed({ modelId: 'm2' })).toEqual([5, 3]);
    expect(await listed({ name: 'alpha' })).toEqual([2, 1]);
    expect(await listed({ modelId: 'm1', status: 'ERROR', sessionId: 's2' })).toEqual([2]);
  });

  it('filters on cost, both bounds inclusive, beyond 2^53 exactly', async () => {
    expect(await listed({ minCostMicroUsd: 2_000n })).toEqual([5, 3, 2]);
    expect(await listed({ minCostMicroUsd: 2_001n })).toEqual([5, 3]);
    expect(await listed({ maxCostMicroUsd: 2_000n })).toEqual([4, 2, 1]);
    expect(await listed({ maxCostMicroUsd: 1_999n })).toEqual([4, 1]);
    expect(await listed({ minCostMicroUsd: BIG })).toEqual([5]);
    expect(await listed({ minCostMicroUsd: BIG + 1n })).toEqual([]);
    expect(await listed({ maxCostMicroUsd: BIG - 1n, minCostMicroUsd: 1n })).toEqual([3, 2, 1]);
  });

  it('filters on duration, both bounds inclusive', async () => {
    expect(await listed({ minDurationMs: 300 })).toEqual([5, 4, 3]);
    expect(await listed({ minDurationMs: 301 })).toEqual([5, 4]);
    expect(await listed({ maxDurationMs: 300 })).toEqual([3, 2, 1]);
    expect(await listed({ maxDurationMs: 299 })).toEqual([2, 1]);
    expect(await listed({ minDurationMs: 200, maxDurationMs: 200 })).toEqual([2]);
  });

  it('filters on annotations of the trace or of one of its spans', async () => {
    expect(await listed({ hasAnnotation: true })).toEqual([3, 1]);
    expect(await listed({ hasAnnotation: false })).toEqual([5, 4, 2]);
    expect(await listed({ hasAnnotation: true, name: 'beta' })).toEqual([3]);
  });

  it('refuses ill-typed filters with INVALID_ARGUMENT before any SQL', async () => {
    const bad: unknown[] = [
      { status: "OK' OR '1'='1" },
      { minCostMicroUsd: -1n },
      { maxCostMicroUsd: 5 },
      { from: new Date('nope') },
      { to: '2030-01-01' },
      { minDurationMs: -1 },
      { maxDurationMs: Number.NaN },
      { sessionId: 42 },
      { hasAnnotation: 'yes' },
    ];
    for (const filter of bad) {
      await expect(store.listTraces(filter as TraceFilter)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(store.summarize(filter as TraceFilter)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    await expect(store.summarize({ groupBy: 'user' as 'model' })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    // A value is a parameter, never SQL: an injection attempt is just a name nothing has.
    expect(await listed({ name: `alpha' OR '1'='1` })).toEqual([]);
  });

  it('rolls up everything: counts, errors, token and cost sums, latency percentiles', async () => {
    const [total] = await store.summarize();
    expect(total).toMatchObject({
      key: null,
      traces: 5,
      errors: 2,
      inputTokens: 116,
      outputTokens: 26,
      cacheWriteTokens: 7,
      cacheReadTokens: 8,
      totalTokens: 157,
      costMicroUsd: 6_000n + BIG,
    });
    // percentile_cont over 100, 200, 300, 400, 1000.
    expect(total?.latencyMs.p50).toBe(300);
    expect(total?.latencyMs.p95).toBeCloseTo(880, 6);
    expect(total?.latencyMs.p99).toBeCloseTo(976, 6);
  });

  it('rolls up by model, session, name and UTC day, leaving out traces without the dimension', async () => {
    const byModel = await store.summarize({ groupBy: 'model' });
    expect(
      byModel.map(({ key, traces: n, errors, costMicroUsd }) => ({ key, n, errors, costMicroUsd })),
    ).toEqual([
      { key: 'm1', n: 2, errors: 1, costMicroUsd: 3_000n },
      { key: 'm2', n: 2, errors: 1, costMicroUsd: 3_000n + BIG },
    ]);
    expect(byModel[0]?.latencyMs.p50).toBe(150);
    const keys = async (groupBy: 'session' | 'name' | 'day'): Promise<[string | null, number][]> =>
      (await store.summarize({ groupBy })).map((rollup) => [rollup.key, rollup.traces]);
    expect(await keys('session')).toEqual([
      ['s1', 2],
      ['s2', 1],
      ['s3', 1],
    ]);
    expect(await keys('name')).toEqual([
      ['alpha', 2],
      ['beta', 2],
      ['gamma', 1],
    ]);
    expect(await keys('day')).toEqual([
      ['2030-01-01', 2],
      ['2030-01-02', 2],
      ['2030-01-03', 1],
    ]);
  });

  it('rolls up only the filtered traces, and an empty set as zeros', async () => {
    const [window] = await store.summarize({ from: new Date(day(1, 12)), to: new Date(day(3)) });
    expect(window).toMatchObject({ traces: 3, errors: 1, costMicroUsd: 5_000n, latencyMs: { p50: 300 } });
    const annotated = await store.summarize({ groupBy: 'name', hasAnnotation: true });
    expect(annotated.map((rollup) => [rollup.key, rollup.traces])).toEqual([
      ['alpha', 1],
      ['beta', 1],
    ]);
    const [none] = await store.summarize({ from: new Date(day(9)) });
    expect(none).toEqual({
      key: null,
      traces: 0,
      errors: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: 0,
      costMicroUsd: 0n,
      latencyMs: { p50: null, p95: null, p99: null },
    });
    expect(await store.summarize({ groupBy: 'day', from: new Date(day(9)) })).toEqual([]);
  });
});
