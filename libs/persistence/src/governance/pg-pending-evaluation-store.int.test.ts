import { type PendingEvaluation, type Tombstone } from '@helios/governance';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgPendingEvaluationStore } from './pg-pending-evaluation-store.js';

const entry = (evaluationId: string, overrides: Partial<PendingEvaluation> = {}): PendingEvaluation => ({
  evaluationId,
  auditRecordId: `audit-${evaluationId}`,
  origin: 'sdk',
  agentId: null,
  sessionId: 's1',
  toolName: 'pay',
  toolInputJson: JSON.stringify({ amount: 12.5, nested: { list: [1, 'two', null] } }),
  metadataJson: JSON.stringify({ sender_id: 'U7' }),
  action: 'allow',
  matchedRuleName: 'pay',
  matchedRuleIndex: 0,
  flaggedDestructive: false,
  reservationId: undefined,
  charges: [],
  budgetsAtEvaluate: undefined,
  approvalTicketId: undefined,
  timestampIso: '2026-01-01T00:00:00.000Z',
  createdAtMs: 1_000,
  expiresAtMs: 601_000,
  bytes: 100,
  ...overrides,
});

const caps = { maxCount: 3, maxBytes: 1_000 };
const tombstone = (evaluationId: string, overrides: Partial<Tombstone> = {}): Tombstone => ({
  evaluationId,
  auditRecordId: `audit-${evaluationId}`,
  finalizedBy: 'audit',
  payloadHash: 'h1',
  expiresAtMs: 5_000,
  ...overrides,
});

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

  it('round-trips an entry, bigint charges and undefined fields included', async () => {
    const full = entry('e-full', {
      reservationId: 'e-full',
      approvalTicketId: 't-1',
      budgetsAtEvaluate: [
        {
          name: 'payments',
          limit: 10,
          spent: 1.5,
          remaining: 8.5,
          attempted_amount: 12.5,
          currency: 'USD',
          window: '1h',
          on_exceed: 'require_approval',
          allowed: false,
          reset_at_ms: 3_601_000,
        },
      ],
      charges: [
        {
          family: 'budget',
          key: 'budget:payments:global',
          epoch: 3,
          amount: 12_500_000n,
          limit: 9_007_199_254_740_993n, // beyond 2^53: must not pass through a double
          window: { type: 'sliding', ms: 3_600_000 },
          onBreach: 'hold',
          senderScoped: false,
          role: 'budget',
          budgetName: 'payments',
          currency: 'USD',
          breached: true,
        },
        {
          family: 'rate',
          key: 'tool:pay:rule:0',
          epoch: 0,
          amount: 1n,
          limit: 5n,
          window: { type: 'session', idleTtlMs: 86_400_000 },
          onBreach: 'refuse',
          senderScoped: false,
          role: 'rate',
          budgetName: undefined,
          currency: undefined,
          breached: false,
        },
      ],
    });
    expect(await store.admit(full, caps)).toBe(true);
    const read = await store.get('e-full');
    expect(read).toStrictEqual(full);
    expect(await store.get('nope')).toBeUndefined();

    await store.latchCommit('e-full', {
      payloadHash: 'abc',
      evidenceChain: { budgets: [{ kind: 'spend' }] },
    });
    expect((await store.get('e-full'))?.commit).toEqual({
      payloadHash: 'abc',
      evidenceChain: { budgets: [{ kind: 'spend' }] },
    });
    await store.latchCommit('gone', { payloadHash: 'x', evidenceChain: null });
  });

  it('admits under both caps at n and refuses at n + 1, by count and by bytes', async () => {
    expect(await store.hasRoom(100, caps)).toBe(true);
    for (const id of ['c1', 'c2', 'c3']) expect(await store.admit(entry(id), caps)).toBe(true);
    expect(await store.hasRoom(1, caps)).toBe(false);
    expect(await store.admit(entry('c4'), caps)).toBe(false);
    expect(await store.backlog()).toEqual({ count: 3, bytes: 300 });

    expect(await store.finalize(tombstone('c1'))).toBe(true);
    expect(await store.finalize(tombstone('c2'))).toBe(true);
    // Bytes: 100 pending + 900 = exactly the cap; one more byte is over it.
    expect(await store.hasRoom(900, caps)).toBe(true);
    expect(await store.hasRoom(901, caps)).toBe(false);
    expect(await store.admit(entry('b1', { bytes: 901 }), caps)).toBe(false);
    expect(await store.admit(entry('b1', { bytes: 900 }), caps)).toBe(true);
    expect(await store.backlog()).toEqual({ count: 2, bytes: 1_000 });
  });

  it('never over-admits under concurrency (two pools racing for the last slots)', async () => {
    const other = new PgPendingEvaluationStore(await db.open(5));
    const wide = { maxCount: 10, maxBytes: 1_000_000 };
    const admitted = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).admit(entry(`race-${i}`), wide)),
    );
    expect(admitted.filter(Boolean)).toHaveLength(10);
    expect((await store.backlog()).count).toBe(10);
  });

  it('finalizes once: the entry goes, its tombstone stays for one TTL, then is pruned', async () => {
    await store.admit(entry('f1'), caps);
    const [a, b] = await Promise.all([
      store.finalize(tombstone('f1')),
      new PgPendingEvaluationStore(await db.open(2)).finalize(tombstone('f1', { payloadHash: 'other' })),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await store.get('f1')).toBeUndefined();
    expect(await store.backlog()).toEqual({ count: 0, bytes: 0 });
    expect(await store.finalize(tombstone('f1'))).toBe(false);
    expect(await store.finalize(tombstone('never-admitted'))).toBe(false);
    expect(await store.tombstone('never-admitted', 0)).toBeUndefined();

    expect(await store.tombstone('f1', 4_999)).toMatchObject({ evaluationId: 'f1', finalizedBy: 'audit' });
    expect(await store.tombstone('f1', 5_000)).toBeUndefined();
    await store.pruneTombstones(4_999);
    expect(await store.tombstone('f1', 0)).toBeDefined();
    await store.pruneTombstones(5_000);
    expect(await store.tombstone('f1', 0)).toBeUndefined();
  });

  it('remembers terminal decisions (and a later remember replaces the tombstone)', async () => {
    await store.remember(tombstone('r1', { finalizedBy: 'evaluate', payloadHash: null }));
    expect(await store.tombstone('r1', 0)).toEqual({
      evaluationId: 'r1',
      auditRecordId: 'audit-r1',
      finalizedBy: 'evaluate',
      payloadHash: null,
      expiresAtMs: 5_000,
    });
    await store.remember(tombstone('r1', { finalizedBy: 'expired', payloadHash: null, expiresAtMs: 9_000 }));
    expect(await store.tombstone('r1', 6_000)).toMatchObject({ finalizedBy: 'expired' });
  });

  it('returns due entries oldest first, at most `limit`, and only those past their TTL', async () => {
    const wide = { maxCount: 100, maxBytes: 1_000_000 };
    await store.admit(entry('d-late', { expiresAtMs: 9_000 }), wide);
    await store.admit(entry('d-first', { expiresAtMs: 2_000 }), wide);
    await store.admit(entry('d-second', { expiresAtMs: 1_500 }), wide);
    await store.admit(entry('d-third', { expiresAtMs: 2_000 }), wide);
    expect((await store.due(1_999, 10)).map((e) => e.evaluationId)).toEqual(['d-second']);
    expect((await store.due(2_000, 10)).map((e) => e.evaluationId)).toEqual([
      'd-first',
      'd-second',
      'd-third',
    ]);
    expect((await store.due(2_000, 2)).map((e) => e.evaluationId)).toEqual(['d-first', 'd-second']);
    expect((await store.due(9_000, 10)).map((e) => e.evaluationId)).toEqual([
      'd-late',
      'd-first',
      'd-second',
      'd-third',
    ]);
  });

  it('keeps pending entries across a new DataSource (what a restarted process sees)', async () => {
    await store.admit(entry('durable', { charges: [] }), caps);
    const restarted = new PgPendingEvaluationStore(await db.open(2));
    expect(await restarted.get('durable')).toStrictEqual(entry('durable'));
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
