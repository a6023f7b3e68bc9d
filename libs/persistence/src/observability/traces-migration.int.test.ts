/**
 * Migration Traces1765324800000 down and up again on a migrated database (with rows in its tables):
 * down removes exactly its two tables, up brings back the same catalog, and the store works again.
 */
import { Traces1765324800000 } from '@helios/migrations';
import { describe, expect, it } from 'vitest';
import { catalogFacts, publicTables } from '../../test/support/schema-catalog.js';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgTraceStore } from './pg-trace-store.js';
import { fixtureTrace } from './trace-fixtures.js';
import { inTransaction } from '../governance/sql.js';

const TABLES = ['helios_spans', 'helios_traces'];
const quiet = { warn: () => undefined, error: () => undefined };

describe.each(databaseTargets)('migration Traces1765324800000 on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  it('goes up, down and up again', async () => {
    const migration = new Traces1765324800000();
    const tablesBefore = await publicTables(db.dataSource);
    const factsBefore = await catalogFacts(db.dataSource, TABLES);
    expect(tablesBefore).toEqual(expect.arrayContaining(TABLES));
    expect(factsBefore.length).toBeGreaterThan(50);
    const store = new PgTraceStore(db.dataSource, { logger: quiet });
    store.onTrace(fixtureTrace({ spans: [{}, {}] }));
    await store.flush();
    expect(store.stats().written).toBe(1);

    await inTransaction(db.dataSource, (runner) => migration.down(runner));
    expect(await publicTables(db.dataSource)).toEqual(
      tablesBefore.filter((table) => !TABLES.includes(table)),
    );

    await inTransaction(db.dataSource, (runner) => migration.up(runner));
    expect(await publicTables(db.dataSource)).toEqual(tablesBefore);
    expect(await catalogFacts(db.dataSource, TABLES)).toEqual(factsBefore);
    const again = fixtureTrace({ spans: [{}] });
    store.onTrace(again);
    await store.flush();
    expect(await store.getTrace(again.id)).toEqual(again);
    expect((await store.listTraces()).items).toHaveLength(1);
  });

  it('keeps a span parent inside its trace and deletes spans with their trace', async () => {
    const traceId = '01900000-0000-7000-8000-000000000001';
    const other = '01900000-0000-7000-8000-000000000002';
    const parent = '01900000-0000-7000-8000-0000000000a1';
    const insertTrace = `INSERT INTO "helios_traces" ("id", "name", "start_time") VALUES ($1, 'n', now())`;
    const insertSpan = `INSERT INTO "helios_spans" ("id", "trace_id", "parent_id", "name", "kind", "start_time")
      VALUES ($1, $2, $3, 'model.call', 'model.call', now())`;
    await db.dataSource.query(insertTrace, [traceId]);
    await db.dataSource.query(insertTrace, [other]);
    await db.dataSource.query(insertSpan, [parent, traceId, null]);
    await db.dataSource.query(insertSpan, ['01900000-0000-7000-8000-0000000000a2', traceId, parent]);
    await expect(
      db.dataSource.query(insertSpan, ['01900000-0000-7000-8000-0000000000a3', other, parent]),
    ).rejects.toThrow(/helios_spans_parent_fkey/);
    await db.dataSource.query(`DELETE FROM "helios_traces" WHERE "id" = $1`, [traceId]);
    const left = (await db.dataSource.query(
      `SELECT count(*)::int AS n FROM "helios_spans" WHERE "trace_id" = $1`,
      [traceId],
    )) as { n: number }[];
    expect(left[0]?.n).toBe(0);
  });
});
