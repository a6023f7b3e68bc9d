/**
 * What the PostgreSQL pending store adds to the PendingEvaluationStore contract (store-contracts.int.test.ts
 * runs that): races between two pools (two API processes), entries surviving a new DataSource, and the
 * queue table's vacuum settings.
 */
import { pendingEntry, tombstone } from '@helios/governance/testing';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgPendingEvaluationStore } from './pg-pending-evaluation-store.js';

const caps = { maxCount: 3, maxBytes: 1_000 };
describe.each(databaseTargets)('PgPendingEvaluationStore on the %s database', (target, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgPendingEvaluationStore;

  beforeAll(() => {
    store = new PgPendingEvaluationStore(db.dataSource);
  });
  beforeEach(async () => {
    // Each test starts from an empty backlog (finalize is the store's only way out, so drain by it).
    for (const pending of await store.due(Number.MAX_SAFE_INTEGER, 10_000)) {
      await store.finalize(tombstone(pending.evaluationId));
    }
    await store.pruneTombstones(Number.MAX_SAFE_INTEGER);
  });

  it('never over-admits when two pools race for the last slots', async () => {
    const other = new PgPendingEvaluationStore(await db.open(5));
    const wide = { maxCount: 10, maxBytes: 1_000_000 };
    const admitted = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).admit(pendingEntry(`race-${i}`), wide)),
    );
    expect(admitted.filter(Boolean)).toHaveLength(10);
    expect((await store.backlog()).count).toBe(10);
  });

  it('finalizes once when two pools race to finalize the same entry', async () => {
    await store.admit(pendingEntry('f1'), caps);
    const [a, b] = await Promise.all([
      store.finalize(tombstone('f1')),
      new PgPendingEvaluationStore(await db.open(2)).finalize(tombstone('f1', { payloadHash: 'other' })),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await store.get('f1')).toBeUndefined();
    expect(await store.backlog()).toEqual({ count: 0, bytes: 0 });
  });

  it('keeps pending entries across a new DataSource (what a restarted process sees)', async () => {
    await store.admit(pendingEntry('durable', { charges: [] }), caps);
    const restarted = new PgPendingEvaluationStore(await db.open(2));
    expect(await restarted.get('durable')).toStrictEqual(pendingEntry('durable'));
    expect((await restarted.due(601_000, 10)).map((e) => e.evaluationId)).toEqual(['durable']);
  });

  it('has its queue table vacuumed by dead-row count, not by its (small) live size', async () => {
    // Evaluate inserts a row and audit deletes it: the dead rows must trigger the vacuum themselves.
    const [table] = (await db.dataSource.query(
      `SELECT reloptions FROM pg_class WHERE oid = '"pending_evaluations"'::regclass`,
    )) as { reloptions: string[] }[];
    expect(table?.reloptions).toEqual(
      expect.arrayContaining([
        'autovacuum_vacuum_scale_factor=0',
        'autovacuum_vacuum_threshold=5000',
        'autovacuum_vacuum_cost_delay=0',
      ]),
    );
    // The embedded server's launcher comes round every few seconds: the churn is vacuumed within them.
    if (target !== 'embedded') return;
    const vacuums = async (): Promise<number> => {
      const rows = (await db.dataSource.query(
        `SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'pending_evaluations'`,
      )) as { autovacuum_count: string }[];
      return Number(rows[0]?.autovacuum_count ?? 0);
    };
    const before = await vacuums();
    // Rows put in and taken out behind the store's back: the backlog totals are untouched either way.
    await db.dataSource.query(
      `INSERT INTO "pending_evaluations" ("evaluation_id", "payload", "bytes", "created_at_ms", "expires_at_ms")
       SELECT 'churn-' || n, '{}'::jsonb, 2, 0, 0 FROM generate_series(1, 6000) n`,
    );
    await db.dataSource.query(`DELETE FROM "pending_evaluations" WHERE "evaluation_id" LIKE 'churn-%'`);
    await vi.waitFor(async () => expect(await vacuums()).toBeGreaterThan(before), {
      timeout: 30_000,
      interval: 250,
    });
  }, 40_000);
});
