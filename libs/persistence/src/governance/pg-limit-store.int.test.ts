/**
 * What the PostgreSQL limit store adds to the LimitStore contract (store-contracts.int.test.ts runs
 * that): the ledger's filter by budget and epoch, and admission when two pools (two API processes)
 * race on one database.
 */
import { type CommitCharge } from '@helios/governance';
import { bucketCheck, chargeContext, reserveRequest } from '@helios/governance/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
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
});
