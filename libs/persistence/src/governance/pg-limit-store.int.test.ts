/**
 * What the PostgreSQL limit store adds to the LimitStore contract (store-contracts.int.test.ts runs
 * that): the ledger's filter by budget and epoch, admission when two pools (two API processes) race on
 * one database, and checks whose cost does not grow with the window's fill.
 */
import { bucketId, type CommitCharge } from '@helios/governance';
import { bucketCheck, chargeContext, reserveRequest } from '@helios/governance/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { APPLY, applyParams } from './limit-buckets.sql.js';
import { PgLimitStore } from './pg-limit-store.js';

let unique = 0;
/** A bucket key no other test touches (tests share one database). */
const fresh = (prefix: string): string => `${prefix}:${(unique += 1)}`;

describe.each(databaseTargets)('PgLimitStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgLimitStore;

  beforeAll(() => {
    store = new PgLimitStore(db.dataSource);
  });

  it('lists the ledger filtered by budget name and by epoch, oldest first', async () => {
    const [payments, infra] = [fresh('payments'), fresh('infra')];
    const charge = (budgetName: string, epoch: number, amount: bigint): CommitCharge => ({
      ...bucketCheck({ key: `budget:${budgetName}:global`, epoch, amount, limit: 100n }),
      ledger: { budgetName, kind: 'spend', currency: 'USD' },
    });
    const first = [charge(payments, 1, 1n), charge(infra, 1, 2n)];
    const second = [charge(payments, 2, 3n)];
    await store.reserve(reserveRequest('ledger-1', first), 7);
    await store.commit('ledger-1', first, chargeContext, 7);
    await store.reserve(reserveRequest('ledger-2', second), 8);
    await store.commit('ledger-2', second, chargeContext, 8);
    const rows = async (filter: { budgetName?: string; epoch?: number }) =>
      (await store.ledger(filter)).map((row) => [row.budgetName, row.epoch, row.amount, row.timestampMs]);
    expect(await rows({ budgetName: payments })).toEqual([
      [payments, 1, 1n, 7],
      [payments, 2, 3n, 8],
    ]);
    expect(await rows({ budgetName: payments, epoch: 2 })).toEqual([[payments, 2, 3n, 8]]);
    expect(await rows({ budgetName: infra, epoch: 2 })).toEqual([]);
    expect((await rows({ epoch: 2 })).filter(([name]) => name === payments || name === infra)).toEqual([
      [payments, 2, 3n, 8],
    ]);
  });

  it('admits exactly 50 of 200 when two separate pools (two API processes) race on one database', async () => {
    const pot = bucketCheck({
      key: fresh('budget:two-processes'),
      amount: 1_000_000n,
      limit: 50_000_000n,
      window: { type: 'sliding', ms: 3_600_000 },
    });
    const [first, second] = [new PgLimitStore(await db.open(8)), new PgLimitStore(await db.open(8))];
    const race = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, n) => from + n).map((i) =>
        (i % 2 === 0 ? first : second).reserve(reserveRequest(`two-${i}`, [pot], { expiresAtMs: 60_000 }), 1),
      );
    // Each process batches the calls that arrive together: a first wave of 20 (which both win, whichever
    // batch locks the pot first), then 180 at once racing for the last 30 slots.
    const opening = race(0, 20);
    const outcomes = [...(await Promise.all(opening)), ...(await Promise.all(race(20, 200)))];
    const reserved = outcomes.flatMap((o, i) => (o.type === 'reserved' ? [i] : []));
    expect(reserved).toHaveLength(50);
    // Both processes won some; committing every winner from the other process charges exactly the pot.
    expect(reserved.some((i) => i % 2 === 0) && reserved.some((i) => i % 2 === 1)).toBe(true);
    const charge = { ...pot, ledger: { budgetName: 'race', kind: 'spend' as const, currency: 'USD' } };
    await Promise.all(
      reserved.map((i) => (i % 2 === 0 ? second : first).commit(`two-${i}`, [charge], chargeContext, 2)),
    );
    expect((await store.peek([pot], 3))[0]?.used).toBe(50_000_000n);
    expect(await store.ledger({ budgetName: 'race' })).toHaveLength(50);
  });

  it("retires a charge committed at an earlier instant than the bucket's oldest exactly one window after it", async () => {
    const rate = bucketCheck({
      key: fresh('tool:clock-back:rule:0'),
      amount: 1n,
      limit: 1_000_000n,
      window: { type: 'sliding', ms: 1_000 },
    });
    const charge = async (id: string, at: number) => {
      await store.reserve(reserveRequest(id, [rate], { expiresAtMs: at + 60_000 }), at);
      await store.commit(id, [rate], chargeContext, at);
    };
    await charge('clock-back-a', 20_000);
    // Another process's clock (or this one's, stepped back) commits 500 ms earlier.
    await charge('clock-back-b', 19_500);
    const used = async (at: number) => (await store.peek([rate], at))[0]?.used;
    expect(await used(20_499)).toBe(2n);
    expect(await used(20_500)).toBe(1n);
    // A reservation at that instant retires it for good: the row's sums agree with the peek.
    await store.reserve(reserveRequest('clock-back-c', [rate], { expiresAtMs: 80_000 }), 20_500);
    await store.release('clock-back-c');
    expect(await used(20_500)).toBe(1n);
    expect(await used(21_000)).toBe(0n);
  });

  it('checks and charges a bucket holding 20,000 charges without reading them (the row keeps the sums)', async () => {
    const rate = bucketCheck({
      family: 'rate',
      epoch: 0,
      amount: 1n,
      key: fresh('tool:filled:rule:0'),
      limit: 1_000_000n,
      window: { type: 'sliding', ms: 3_600_000 },
    });
    const now = 10_000_000;
    await store.reserve(reserveRequest('filled-0', [rate], { expiresAtMs: now + 60_000 }), now);
    await store.commit('filled-0', [rate], chargeContext, now);
    const bucket = bucketId(rate);
    await db.dataSource.query(
      `INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
       SELECT $1, 'fill-' || g, 1, $2::bigint - g FROM generate_series(1, 20000) g`,
      [bucket, now],
    );
    await db.dataSource.query(
      `UPDATE "limit_buckets" SET "charged" = "charged" + 20000, "charge_count" = "charge_count" + 20000,
         "oldest_ms" = $2::bigint - 20000 WHERE "bucket_id" = $1`,
      [bucket, now],
    );
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    // What this connection's statements read of limit_charges: its statistics, not yet reported
    // (a backend reports them only between transactions), before and after, inside one transaction.
    const readOfCharges = async (): Promise<{ seq: number; fetched: number }> =>
      (
        (await runner.query(
          `SELECT coalesce(sum(seq_tup_read), 0)::int AS seq, coalesce(sum(idx_tup_fetch), 0)::int AS fetched
           FROM pg_stat_xact_user_tables WHERE relname = 'limit_charges'`,
        )) as { seq: number; fetched: number }[]
      )[0] as { seq: number; fetched: number };
    try {
      await runner.startTransaction();
      const before = await readOfCharges();
      const later = now + 1_000;
      const request = reserveRequest('filled-1', [rate], { expiresAtMs: later + 60_000 });
      const [reserved] = (await runner.query(
        APPLY.text,
        applyParams([{ kind: 'reserve', request, nowMs: later }]),
      )) as { r_used: string[] }[];
      await runner.query(
        APPLY.text,
        applyParams([
          {
            kind: 'commit',
            reservationId: 'filled-1',
            charges: [rate],
            context: chargeContext,
            nowMs: later,
          },
        ]),
      );
      const after = await readOfCharges();
      expect(reserved?.r_used).toEqual(['20001']);
      expect({ seq: after.seq - before.seq, fetched: after.fetched - before.fetched }).toEqual({
        seq: 0,
        fetched: 0,
      });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
