/**
 * PgTraceStore on real PostgreSQL: the round trip of every field, batching, overflow, the bind-parameter
 * limit, redaction of every text field and attribute value, and what happens when writes fail.
 * (Filters and rollups: trace-queries.int.test.ts.)
 */
import { CostEstimate, InvalidArgumentError, SecretRegistry, type Trace } from '@helios/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgTraceStore, type PgTraceStoreOptions } from './pg-trace-store.js';
import { type TraceStoreLogger } from './trace-batch-writer.js';
import { fixtureTrace } from './trace-fixtures.js';

interface Log extends TraceStoreLogger {
  readonly warnings: string[];
  readonly errors: string[];
}

function collectingLogger(onWarn: (message: string) => void = () => undefined): Log {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings,
    errors,
    warn: (message) => {
      warnings.push(message);
      onWarn(message);
    },
    error: (message) => errors.push(message),
  };
}

const BEYOND_2_53 = 2n ** 60n + 7n;

/** A VERBOSE trace with every optional field and every usage class set. */
function fullTrace(): Trace {
  const start = Date.UTC(2031, 5, 7, 8, 9, 10, 123);
  return fixtureTrace({
    name: 'support-agent',
    detail: 'VERBOSE',
    sessionId: 'tenant-1:session.42',
    runId: 'run-7',
    modelId: 'claude-sonnet-4-5',
    startTime: start,
    durationMs: 4321,
    error: 'tool failed: disk full',
    attributes: { 'agent.preset': 'default', unicode: 'héllo ✓' },
    inputText: 'What is in the file?',
    outputText: 'It is empty.',
    spans: [
      {
        kind: 'model.call',
        startTime: start + 1,
        durationMs: 1200,
        tokens: [1000, 200, 30, 4000],
        costMicroUsd: BEYOND_2_53,
        attributes: { 'model.id': 'claude-sonnet-4-5' },
        input: 'prompt text',
        output: 'answer text',
      },
      {
        kind: 'tool.read_file',
        startTime: start + 1300,
        durationMs: 5,
        status: 'ERROR',
        error: 'ENOSPC',
        input: '{"path":"a.txt"}',
        output: '',
        attributes: { 'tool.call_id': 'call_1' },
      },
      { kind: 'hook.guard', startTime: start + 1300, durationMs: 0, costMicroUsd: 1n },
    ],
  });
}

describe.each(databaseTargets)('PgTraceStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  const stores: PgTraceStore[] = [];

  const open = (options: Partial<PgTraceStoreOptions> = {}): PgTraceStore => {
    const store = new PgTraceStore(db.dataSource, { logger: collectingLogger(), ...options });
    stores.push(store);
    return store;
  };

  const rows = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await db.dataSource.query(sql, params)) as T[];

  const countWhere = async (table: string, where: string, params: unknown[]): Promise<number> =>
    (await rows<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE ${where}`, params))[0]?.n ??
    -1;

  beforeAll(() => {
    stores.length = 0;
  });

  it('stores every field and reads the same trace back, money beyond 2^53 exactly', async () => {
    const store = open();
    const trace = fullTrace();
    expect(trace.cost.microUsd).toBe(BEYOND_2_53 + 1n);
    store.onTrace(trace);
    await store.flush();
    expect(await store.getTrace(trace.id)).toEqual(trace);
    const [row] = await rows<Record<string, unknown>>(
      `SELECT "cost_micro_usd"::text AS cost, "total_tokens", "cache_creation_tokens", "detail", "run_id",
              "status", "duration_ms"::int AS duration, "parent_id" IS NULL AS no_parent
       FROM "helios_traces" t JOIN LATERAL (SELECT "parent_id" FROM "helios_spans" WHERE "trace_id" = t."id"
         LIMIT 1) s ON true WHERE t."id" = $1`,
      [trace.id],
    );
    expect(row).toEqual({
      cost: (BEYOND_2_53 + 1n).toString(),
      total_tokens: 5230,
      cache_creation_tokens: 30,
      detail: 'VERBOSE',
      run_id: 'run-7',
      status: 'ERROR',
      duration: 4321,
      no_parent: true,
    });
    const kinds = await rows<{ name: string; kind: string }>(
      `SELECT "name", "kind" FROM "helios_spans" WHERE "trace_id" = $1 ORDER BY "start_time", "id"`,
      [trace.id],
    );
    expect(kinds).toEqual([
      { name: 'model.call', kind: 'model.call' },
      { name: 'tool.read_file', kind: 'tool' },
      { name: 'hook.guard', kind: 'hook' },
    ]);
  });

  it('keeps zero usage as 0, not NULL, and reads NULL usage (not recorded) as 0', async () => {
    const store = open();
    const bare = fixtureTrace({ spans: [{ kind: 'tool.noop' }] });
    store.onTrace(bare);
    await store.flush();
    expect(await store.getTrace(bare.id)).toEqual(bare);
    const [stored] = await rows<Record<string, unknown>>(
      `SELECT "input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens",
              "cost_micro_usd"::text AS cost, "error", "input_text", "session_id"
       FROM "helios_traces" WHERE "id" = $1`,
      [bare.id],
    );
    expect(stored).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_tokens: 0,
      cache_read_tokens: 0,
      cost: '0',
      error: null,
      input_text: null,
      session_id: null,
    });
    const foreign = '01900000-0000-7000-8000-0000000000aa';
    await db.dataSource.query(
      `INSERT INTO "helios_traces" ("id", "name", "start_time") VALUES ($1, 'other-writer', '2031-01-01Z')`,
      [foreign],
    );
    const read = await store.getTrace(foreign);
    expect(read).toMatchObject({ usage: { inputTokens: 0, totalTokens: 0 }, durationMs: 0, spans: [] });
    expect(read?.cost).toBe(CostEstimate.ZERO);
  });

  it('answers undefined for an unknown trace and refuses an id that is not a UUID', async () => {
    const store = open();
    expect(await store.getTrace('01900000-0000-7000-8000-0000000000ff')).toBeUndefined();
    await expect(store.getTrace("x' OR '1'='1")).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('never blocks onTrace: 5,000 traces queue at once, then land in few multi-row batches', async () => {
    const store = open({ batchSize: 500 });
    const name = `burst-${Date.now()}`;
    const traces = Array.from({ length: 5_000 }, (_, i) =>
      fixtureTrace({ name, startTime: Date.UTC(2032, 0, 1) + i, spans: [{}, { kind: 'tool.x' }] }),
    );
    const started = performance.now();
    for (const trace of traces) store.onTrace(trace);
    const enqueueMs = performance.now() - started;
    expect(store.stats()).toMatchObject({ enqueued: 5_000, written: 0, queued: 5_000, dropped: 0 });
    expect(enqueueMs).toBeLessThan(1_000);
    await store.flush();
    expect(store.stats()).toMatchObject({ written: 5_000, spansWritten: 10_000, dropped: 0, queued: 0 });
    expect(await countWhere('helios_traces', `"name" = $1`, [name])).toBe(5_000);
    const spans = await countWhere(
      'helios_spans',
      `"trace_id" IN (SELECT "id" FROM "helios_traces" WHERE "name" = $1)`,
      [name],
    );
    expect(spans).toBe(10_000);
    // One transaction per batch: the rows carry as many distinct creating transaction ids as batches.
    const [{ batches } = { batches: 0 }] = await rows<{ batches: number }>(
      `SELECT count(DISTINCT xmin::text)::int AS batches FROM "helios_traces" WHERE "name" = $1`,
      [name],
    );
    expect(batches).toBeGreaterThanOrEqual(10);
    expect(batches).toBeLessThanOrEqual(11);
  });

  it('cuts a large batch into several statements, all in its one transaction', async () => {
    // About 1,000 characters: a few rows per INSERT, so 30 traces of 4 spans take dozens of statements.
    const store = open({ maxStatementChars: 1_000 });
    const name = `chunked-${Date.now()}`;
    for (let i = 0; i < 30; i += 1) store.onTrace(fixtureTrace({ name, spans: [{}, {}, {}, {}] }));
    await store.flush();
    expect(store.stats()).toMatchObject({ written: 30, spansWritten: 120, dropped: 0 });
    expect(await countWhere('helios_traces', `"name" = $1`, [name])).toBe(30);
    const [{ transactions } = { transactions: 0 }] = await rows<{ transactions: number }>(
      `SELECT count(DISTINCT xmin::text)::int AS transactions FROM "helios_traces" WHERE "name" = $1`,
      [name],
    );
    expect(transactions).toBe(1);
  });

  it('drops what a full queue cannot take, counts and logs every drop, then accepts again', async () => {
    const logger = collectingLogger();
    const store = open({ capacity: 3, logger });
    const traces = Array.from({ length: 10 }, () => fixtureTrace({ name: 'overflow' }));
    for (const trace of traces) store.onTrace(trace);
    expect(store.stats()).toMatchObject({ enqueued: 3, droppedOverflow: 7, dropped: 7, queued: 3 });
    expect(logger.warnings).toEqual([
      expect.stringContaining(`trace ${traces[3]?.id} dropped: the queue is full`),
    ]);
    await store.flush();
    expect(logger.warnings[1]).toMatch(/6 more trace\(s\) dropped .*dropped so far: 7/);
    expect(store.stats()).toMatchObject({ written: 3, droppedFailed: 0 });
    for (const trace of traces.slice(3, 6)) store.onTrace(trace);
    await store.flush();
    expect(store.stats()).toMatchObject({ enqueued: 6, written: 6, droppedOverflow: 7 });
    for (const trace of traces.slice(0, 6)) expect(await store.getTrace(trace.id)).toBeDefined();
    for (const trace of traces.slice(6)) expect(await store.getTrace(trace.id)).toBeUndefined();
  });

  it('drops and counts traces offered after close, which flushes what was queued', async () => {
    const logger = collectingLogger();
    const store = open({ logger });
    const queued = fixtureTrace();
    store.onTrace(queued);
    await store.close();
    expect(await store.getTrace(queued.id)).toEqual(queued);
    store.onTrace(fixtureTrace());
    expect(store.stats()).toMatchObject({ enqueued: 1, written: 1, droppedOverflow: 1 });
    expect(logger.warnings.at(-1)).toMatch(/dropped: the store is closed/);
    await store.flush();
  });

  it('refuses bad options with INVALID_ARGUMENT', () => {
    for (const bad of [{ capacity: 0 }, { batchSize: 1.5 }, { maxRetries: -1 }, { maxStatementChars: 0 }]) {
      expect(() => open(bad)).toThrow(InvalidArgumentError);
    }
  });

  it('stores NUL characters, which PostgreSQL text cannot hold, as U+FFFD', async () => {
    const store = open();
    const trace = fixtureTrace({
      detail: 'VERBOSE',
      outputText: 'a\u0000b',
      attributes: { 'k\u0000': 'v\u0000' },
    });
    store.onTrace(trace);
    await store.flush();
    expect(await store.getTrace(trace.id)).toMatchObject({
      outputText: 'a\uFFFDb',
      attributes: { 'k\uFFFD': 'v\uFFFD' },
    });
  });

  it('stores a trace offered twice once, in one batch or in two, and loses nothing', async () => {
    const store = open();
    const twice = fixtureTrace({ spans: [{}, {}] });
    store.onTrace(twice);
    store.onTrace(twice);
    await store.flush();
    store.onTrace(twice);
    await store.flush();
    expect(store.stats()).toMatchObject({ enqueued: 3, written: 3, dropped: 0 });
    expect(await countWhere('helios_traces', `"id" = $1`, [twice.id])).toBe(1);
    expect(await countWhere('helios_spans', `"trace_id" = $1`, [twice.id])).toBe(2);
    expect(await store.getTrace(twice.id)).toEqual(twice);
  });

  it('drops and logs a trace that cannot be turned into rows, writing the rest of its batch', async () => {
    const logger = collectingLogger();
    const store = open({ logger });
    const good = fixtureTrace({ spans: [{}] });
    store.onTrace({ ...fixtureTrace(), id: 'not-a-uuid' });
    store.onTrace({ ...fixtureTrace(), startTime: Number.NaN });
    store.onTrace(good);
    await store.flush();
    expect(store.stats()).toMatchObject({ enqueued: 3, written: 1, droppedFailed: 2, failedBatches: 0 });
    expect(logger.errors).toEqual([
      expect.stringMatching(/cannot be stored: trace id must be a UUID.*: not-a-uuid$/),
      expect.stringMatching(/cannot be stored: trace startTime must be a finite number/),
    ]);
    expect(await store.getTrace(good.id)).toEqual(good);
  });

  it('loses only the trace the database refuses, logged by id', async () => {
    const logger = collectingLogger();
    const store = open({ logger });
    const good = [fixtureTrace(), fixtureTrace()];
    const refused = fixtureTrace({ sessionId: 's'.repeat(300) });
    store.onTrace(good[0] as Trace);
    store.onTrace(refused);
    store.onTrace(good[1] as Trace);
    await store.flush();
    expect(store.stats()).toMatchObject({ written: 2, droppedFailed: 1, dropped: 1, failedBatches: 1 });
    expect(logger.errors).toEqual([expect.stringContaining(`refused by the database`)]);
    expect(logger.errors[0]).toContain(refused.id);
    for (const trace of good) expect(await store.getTrace(trace.id)).toEqual(trace);
  });

  it('retries a failed batch with backoff and writes it once the database is back', async () => {
    await db.dataSource.query(`ALTER TABLE "helios_spans" RENAME TO "helios_spans_away"`);
    let restored: Promise<unknown> | undefined;
    const logger = collectingLogger((message) => {
      if (message.includes('retry 2 of 3'))
        restored = db.dataSource.query(`ALTER TABLE "helios_spans_away" RENAME TO "helios_spans"`);
    });
    const store = open({ logger, retryDelayMs: 20 });
    const trace = fixtureTrace({ spans: [{}] });
    store.onTrace(trace);
    await store.flush();
    await restored;
    expect(store.stats()).toMatchObject({ written: 1, retries: 2, dropped: 0, failedBatches: 0 });
    expect(logger.warnings).toEqual([
      expect.stringMatching(/not written .*helios_spans.*retry 1 of 3 in 20 ms/),
      expect.stringMatching(/retry 2 of 3 in 40 ms/),
    ]);
    expect(await store.getTrace(trace.id)).toEqual(trace);
  });

  it('gives a batch up after its retries: every trace counted as dropped and logged', async () => {
    await db.dataSource.query(`ALTER TABLE "helios_spans" RENAME TO "helios_spans_away"`);
    try {
      const logger = collectingLogger();
      const store = open({ logger, maxRetries: 1, retryDelayMs: 1 });
      const traces = [fixtureTrace({ spans: [{}] }), fixtureTrace({ spans: [{}] })];
      for (const trace of traces) store.onTrace(trace);
      await store.flush();
      expect(store.stats()).toMatchObject({ written: 0, droppedFailed: 2, failedBatches: 1, retries: 1 });
      expect(logger.errors).toEqual([expect.stringMatching(/dropped, not written after 2 attempt\(s\)/)]);
      for (const trace of traces) expect(logger.errors[0]).toContain(trace.id);
    } finally {
      await db.dataSource.query(`ALTER TABLE "helios_spans_away" RENAME TO "helios_spans"`);
    }
  });

  it('redacts every text field and attribute value before the database, with a registry or a function', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const registry = new SecretRegistry();
    registry.register('API_KEY', secret);
    const leaky = (): Trace =>
      fixtureTrace({
        detail: 'VERBOSE',
        error: `failed with ${secret}`,
        inputText: `use ${secret}`,
        outputText: `${secret}!`,
        attributes: { header: `Bearer ${secret}`, plain: 'ok' },
        spans: [
          { error: secret, input: `x${secret}x`, output: secret, attributes: { token: secret } },
          { kind: 'tool.http', attributes: { url: `https://h/?key=${secret}` } },
        ],
      });
    const viaRegistry = leaky();
    const viaFunction = leaky();
    const verbatim = leaky();
    open({ redactor: registry.redactor() }).onTrace(viaRegistry);
    open({ redactor: (text) => text.replaceAll(secret, '***') }).onTrace(viaFunction);
    open().onTrace(verbatim);
    await Promise.all(stores.map((store) => store.flush()));

    const dump = async (id: string): Promise<string> => {
      const found = await rows<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "helios_traces" t WHERE "id" = $1
         UNION ALL SELECT row_to_json(s)::text FROM "helios_spans" s WHERE "trace_id" = $1`,
        [id],
      );
      expect(found).toHaveLength(3);
      return found.map((entry) => entry.row).join('\n');
    };
    const redacted = await dump(viaRegistry.id);
    expect(redacted).not.toContain(secret);
    expect(redacted.split('<redacted:API_KEY>').length - 1).toBe(9);
    expect(await open().getTrace(viaRegistry.id)).toMatchObject({
      attributes: { header: 'Bearer <redacted:API_KEY>', plain: 'ok' },
    });
    const replaced = await dump(viaFunction.id);
    expect(replaced).not.toContain(secret);
    expect(replaced.split('***').length - 1).toBe(9);
    expect((await dump(verbatim.id)).split(secret).length - 1).toBe(9);
  });
});
