import { type BucketCheck, type CommitCharge, type ReserveRequest } from '@helios/governance';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgLimitStore } from './pg-limit-store.js';

const check = (overrides: Partial<BucketCheck> = {}): BucketCheck => ({
  family: 'budget',
  key: 'budget:p:session:s',
  epoch: 1,
  amount: 2n,
  limit: 5n,
  window: { type: 'session', idleTtlMs: 1_000 },
  onBreach: 'refuse',
  senderScoped: false,
  ...overrides,
});

const context = { auditRecordId: 'a', toolName: 't', origin: 'o' };
let unique = 0;
/** A bucket key no other test touches (tests share one database). */
const fresh = (prefix: string): string => `${prefix}:${(unique += 1)}`;

const request = (reservationId: string, checks: BucketCheck[], overrides: Partial<ReserveRequest> = {}) => ({
  reservationId,
  checks,
  expiresAtMs: 10_000,
  maxSenderKeys: 10,
  ...overrides,
});

describe.each(databaseTargets)('PgLimitStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgLimitStore;

  beforeAll(() => {
    store = new PgLimitStore(db.dataSource);
  });

  it('session pots never replenish while active and are collected after idle_ttl', async () => {
    const pot = check({ key: fresh('budget:p:session') });
    await store.reserve(request('r1', [pot]), 0);
    const committed = await store.commit('r1', [pot], context, 0);
    expect(committed).toEqual([{ used: 2n, allowed: true, resetAtMs: null }]);
    // Idempotent per reservation id: the second commit returns the first one's snapshots, charges nothing.
    expect(await store.commit('r1', [pot], context, 0)).toEqual(committed);
    expect((await store.peek([{ ...pot, amount: 4n }], 900))[0]).toEqual({
      used: 2n,
      allowed: false,
      resetAtMs: null,
    });
    expect((await store.peek([{ ...pot, amount: 4n }], 2_000))[0]).toMatchObject({ used: 0n, allowed: true });
    // The idle pot is really forgotten: a charge after idle_ttl starts from zero.
    await store.reserve(request('r2', [pot], { expiresAtMs: 5_000 }), 2_000);
    expect(await store.commit('r2', [pot], context, 2_000)).toEqual([
      { used: 2n, allowed: true, resetAtMs: null },
    ]);
  });

  it('holds expire on their own, so a crashed caller never pins capacity', async () => {
    const sliding = check({ key: fresh('tool:x'), window: { type: 'sliding', ms: 60_000 }, amount: 5n });
    expect((await store.reserve(request('h1', [sliding], { expiresAtMs: 100 }), 0)).type).toBe('reserved');
    expect(await store.reserve(request('h2', [sliding], { expiresAtMs: 100 }), 50)).toEqual({
      type: 'refused',
      snapshots: [{ used: 5n, allowed: false, resetAtMs: 60_050 }],
    });
    expect((await store.reserve(request('h2', [sliding], { expiresAtMs: 300 }), 100)).type).toBe('reserved');
  });

  it('a reconfigured window starts the bucket over', async () => {
    const key = fresh('budget:w');
    await store.reserve(request('w1', [check({ key })]), 0);
    await store.commit('w1', [check({ key })], context, 0);
    const resized = check({ key, window: { type: 'sliding', ms: 10 } });
    expect((await store.peek([resized], 1))[0]).toEqual({ used: 0n, allowed: true, resetAtMs: 11 });
    expect(await store.reserve(request('w2', [resized]), 1)).toMatchObject({ type: 'reserved' });
    expect(await store.commit('w2', [resized], context, 1)).toEqual([
      { used: 2n, allowed: true, resetAtMs: 11 },
    ]);
    // The old session charge is gone for good, even when the old window comes back.
    expect((await store.peek([check({ key })], 2))[0]?.used).toBe(0n);
  });

  it('sliding windows replenish as charges age out; reset_at is the oldest charge + window', async () => {
    const rate = check({
      family: 'rate',
      epoch: 0,
      key: fresh('tool:send:rule:0'),
      amount: 1n,
      limit: 2n,
      window: { type: 'sliding', ms: 1_000 },
    });
    for (const [id, at] of [
      ['s1', 0],
      ['s2', 400],
    ] as const) {
      expect((await store.reserve(request(id, [rate]), at)).type).toBe('reserved');
      await store.commit(id, [rate], context, at);
    }
    expect(await store.reserve(request('s3', [rate]), 500)).toEqual({
      type: 'refused',
      snapshots: [{ used: 2n, allowed: false, resetAtMs: 1_000 }],
    });
    expect(await store.reserve(request('s3', [rate]), 1_000)).toEqual({
      type: 'reserved',
      snapshots: [{ used: 1n, allowed: true, resetAtMs: 1_400 }],
    });
    expect(await store.peek([rate], 1_000)).toEqual([{ used: 2n, allowed: false, resetAtMs: 1_400 }]);
  });

  it('is all-or-nothing: one refusing bucket places no hold anywhere', async () => {
    const roomy = check({ key: fresh('budget:roomy'), limit: 100n });
    const tight = check({ key: fresh('budget:tight'), limit: 1n });
    const outcome = await store.reserve(request('n1', [roomy, tight]), 0);
    expect(outcome).toEqual({
      type: 'refused',
      snapshots: [
        { used: 0n, allowed: true, resetAtMs: null },
        { used: 0n, allowed: false, resetAtMs: null },
      ],
    });
    expect((await store.peek([roomy], 0))[0]?.used).toBe(0n);
  });

  it('break-glass checks (`hold`) hold past the limit; release frees the hold', async () => {
    const breaking = check({ key: fresh('budget:glass'), amount: 9n, onBreach: 'hold' });
    expect(await store.reserve(request('g1', [breaking]), 0)).toEqual({
      type: 'reserved',
      snapshots: [{ used: 0n, allowed: false, resetAtMs: null }],
    });
    expect((await store.peek([breaking], 1))[0]?.used).toBe(9n);
    await store.release('g1');
    expect((await store.peek([breaking], 1))[0]?.used).toBe(0n);
    // A commit is recorded even past the limit: the call already happened.
    await store.reserve(request('g2', [breaking]), 2);
    expect(await store.commit('g2', [breaking], context, 2)).toEqual([
      { used: 9n, allowed: false, resetAtMs: null },
    ]);
  });

  it('caps distinct live sender-scoped buckets, counting a bucket again once it has emptied', async () => {
    const sender = (id: string): BucketCheck =>
      check({
        family: 'rate',
        epoch: 0,
        key: fresh(`sender:${id}:rule:0`),
        amount: 1n,
        limit: 1n,
        window: { type: 'sliding', ms: 1_000 },
        senderScoped: true,
      });
    const [a, b, c] = [sender('a'), sender('b'), sender('c')];
    const base = 10_000_000; // later than every other test's activity, so their sender buckets are empty
    const capped = { maxSenderKeys: 2, expiresAtMs: base + 500 };
    expect((await store.reserve(request('k1', [a], capped), base)).type).toBe('reserved');
    expect((await store.reserve(request('k2', [b], capped), base)).type).toBe('reserved');
    expect(await store.reserve(request('k3', [c], capped), base)).toEqual({ type: 'capacity_exhausted' });
    // An already-live sender bucket needs no new capacity.
    expect((await store.reserve(request('k4', [a], capped), base)).type).toBe('refused');
    await store.release('k2');
    expect((await store.reserve(request('k3', [c], capped), base)).type).toBe('reserved');
    // Once the holds have expired every sender bucket is empty again and b fits.
    expect(
      (await store.reserve(request('k5', [b], { ...capped, expiresAtMs: base + 2_000 }), base + 600)).type,
    ).toBe('reserved');
  });

  it('retires a budget the policy dropped: added back unchanged, it starts a fresh epoch', async () => {
    const payments = { name: 'retire-me', identity: '[10,"USD","1h","global"]' };
    expect(Object.fromEntries(await store.reconcileBudgets([payments]))).toEqual({ 'retire-me': 1 });
    expect(Object.fromEntries(await store.reconcileBudgets([payments]))).toEqual({ 'retire-me': 1 });
    await store.reconcileBudgets([]);
    expect(Object.fromEntries(await store.reconcileBudgets([payments]))).toEqual({ 'retire-me': 2 });
    expect(Object.fromEntries(await store.reconcileBudgets([payments]))).toEqual({ 'retire-me': 2 });
  });

  it('writes budget charges to the ledger with their epoch, kind and audit record id', async () => {
    const epochs = await store.reconcileBudgets([
      { name: 'payments', identity: '10|USD|1h|global' },
      { name: 'infra', identity: '5|USD|session|session' },
    ]);
    expect(Object.fromEntries(epochs)).toEqual({ payments: 1, infra: 1 });
    expect(
      Object.fromEntries(await store.reconcileBudgets([{ name: 'payments', identity: '10|USD|1h|global' }])),
    ).toEqual({ payments: 1 });
    expect(
      Object.fromEntries(await store.reconcileBudgets([{ name: 'payments', identity: '20|USD|1h|global' }])),
    ).toEqual({ payments: 2 });
    expect(await store.reconcileBudgets([])).toEqual(new Map());

    const pot = check({ key: 'budget:payments:global', epoch: 2, amount: 3_000_000n, limit: 20_000_000n });
    const rate = check({ family: 'rate', epoch: 0, key: fresh('tool:pay:rule:0'), amount: 1n, limit: 10n });
    await store.reserve(request('l1', [rate, pot]), 7);
    const charges: CommitCharge[] = [
      rate,
      {
        ...pot,
        amount: 4_500_000n,
        ledger: { budgetName: 'payments', kind: 'approved_overage', currency: 'USD' },
      },
    ];
    await store.commit('l1', charges, { auditRecordId: 'rec-1', toolName: 'pay', origin: 'sdk' }, 7);
    await store.commit('l1', charges, { auditRecordId: 'rec-1', toolName: 'pay', origin: 'sdk' }, 8);
    expect(await store.ledger({ budgetName: 'payments' })).toEqual([
      {
        budgetName: 'payments',
        epoch: 2,
        bucketKey: 'budget:payments:global',
        kind: 'approved_overage',
        amount: 4_500_000n,
        currency: 'USD',
        toolName: 'pay',
        origin: 'sdk',
        auditRecordId: 'rec-1',
        timestampMs: 7,
      },
    ]);
    expect(await store.ledger({ budgetName: 'payments', epoch: 1 })).toEqual([]);
    // A new epoch is a new pot: the epoch-2 spend does not count against epoch 3.
    expect((await store.peek([{ ...pot, epoch: 3 }], 9))[0]?.used).toBe(0n);
    expect((await store.peek([pot], 9))[0]?.used).toBe(4_500_000n);
  });

  it('commits once when the same reservation is committed concurrently', async () => {
    const pot = check({ key: fresh('budget:twice'), amount: 1n, limit: 100n });
    await store.reserve(request('c1', [pot]), 0);
    const results = await Promise.all(Array.from({ length: 5 }, () => store.commit('c1', [pot], context, 0)));
    for (const snapshots of results)
      expect(snapshots).toEqual([{ used: 1n, allowed: true, resetAtMs: null }]);
    expect((await store.peek([pot], 0))[0]?.used).toBe(1n);
  });

  it('reserves and commits nothing when a call has no checks', async () => {
    expect(await store.peek([], 0)).toEqual([]);
    expect(await store.reserve(request('e1', []), 0)).toEqual({ type: 'reserved', snapshots: [] });
    expect(await store.commit('e1', [], context, 0)).toEqual([]);
  });

  const budgetOf50 = (key: string): BucketCheck =>
    check({ key, amount: 1_000_000n, limit: 50_000_000n, window: { type: 'sliding', ms: 3_600_000 } });

  it('admits exactly 50 of 200 concurrent reservations against a budget that admits 50', async () => {
    const pot = budgetOf50(fresh('budget:race'));
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.reserve(request(`race-${i}`, [pot], { expiresAtMs: 60_000 }), 1),
      ),
    );
    expect(outcomes.filter((o) => o.type === 'reserved')).toHaveLength(50);
    expect(outcomes.filter((o) => o.type === 'refused')).toHaveLength(150);
    expect((await store.peek([pot], 2))[0]).toMatchObject({ used: 50_000_000n, allowed: false });
  });

  it('admits exactly 50 of 200 when two separate pools (two API processes) race on one database', async () => {
    const pot = budgetOf50(fresh('budget:two-processes'));
    const [first, second] = [new PgLimitStore(await db.open(8)), new PgLimitStore(await db.open(8))];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? first : second).reserve(request(`two-${i}`, [pot], { expiresAtMs: 60_000 }), 1),
      ),
    );
    const reserved = outcomes.flatMap((o, i) => (o.type === 'reserved' ? [i] : []));
    expect(reserved).toHaveLength(50);
    // Both processes won some; committing every winner from the other process charges exactly the pot.
    expect(reserved.some((i) => i % 2 === 0) && reserved.some((i) => i % 2 === 1)).toBe(true);
    const charge = { ...pot, ledger: { budgetName: 'race', kind: 'spend' as const, currency: 'USD' } };
    await Promise.all(
      reserved.map((i) => (i % 2 === 0 ? second : first).commit(`two-${i}`, [charge], context, 2)),
    );
    expect((await store.peek([pot], 3))[0]?.used).toBe(50_000_000n);
    expect(await store.ledger({ budgetName: 'race' })).toHaveLength(50);
  });
});
