/**
 * The LimitStore contract: what every implementation (in memory, PostgreSQL) must answer alike. Cases
 * use keys of their own, so a store over shared data (one database for the whole suite) passes too;
 * sender-scoped buckets are created only by the sender-capacity case, at an instant later than any
 * other case's activity.
 */
import { describe, expect, it } from 'vitest';
import {
  type BucketCheck,
  type CommitCharge,
  type LedgerEntry,
  type LimitStore,
  type ReserveRequest,
} from '../../stores/limit-store.js';
import { subjectPerCase, unique, type ContractFactory } from './contract-subject.js';

/** A limit store that can list its ledger (oldest first), as both implementations do for reporting. */
export type LedgeredLimitStore = LimitStore & {
  ledger(): readonly LedgerEntry[] | Promise<readonly LedgerEntry[]>;
};

/** A refusing session-budget check on a bucket of its own; fields overridable. */
export const bucketCheck = (overrides: Partial<BucketCheck> = {}): BucketCheck => ({
  family: 'budget',
  key: unique('budget:p:session'),
  epoch: 1,
  amount: 2n,
  limit: 5n,
  window: { type: 'session', idleTtlMs: 1_000 },
  onBreach: 'refuse',
  senderScoped: false,
  ...overrides,
});

/** The record context a commit is charged under. */
export const chargeContext = { auditRecordId: 'a', toolName: 't', origin: 'o' };

/** A reservation of `checks`, expiring at 10 s, with room for 10 sender keys; fields overridable. */
export const reserveRequest = (
  reservationId: string,
  checks: BucketCheck[],
  overrides: Partial<ReserveRequest> = {},
): ReserveRequest => ({ reservationId, checks, expiresAtMs: 10_000, maxSenderKeys: 10, ...overrides });

const id = (prefix: string): string => unique(prefix);

/** Micro-units per unit of the currency. */
const UNIT = 1_000_000n;

/** The contract's cases, each run against the current case's store. */
const CASES: Readonly<Record<string, (store: () => LedgeredLimitStore) => Promise<void>>> = {
  'session pots never replenish while active and are collected after idle_ttl': async (store) => {
    const pot = bucketCheck();
    const [r1, r2] = [id('r'), id('r')];
    await store().reserve(reserveRequest(r1, [pot]), 0);
    const committed = await store().commit(r1, [pot], chargeContext, 0);
    expect(committed).toEqual([{ used: 2n, allowed: true, resetAtMs: null }]);
    // Idempotent per reservation id: the second commit returns the first one's snapshots, charges nothing.
    expect(await store().commit(r1, [pot], chargeContext, 0)).toEqual(committed);
    expect((await store().peek([{ ...pot, amount: 4n }], 900))[0]).toEqual({
      used: 2n,
      allowed: false,
      resetAtMs: null,
    });
    expect((await store().peek([{ ...pot, amount: 4n }], 2_000))[0]).toMatchObject({
      used: 0n,
      allowed: true,
    });
    // The idle pot is really forgotten: a charge after idle_ttl starts from zero.
    await store().reserve(reserveRequest(r2, [pot], { expiresAtMs: 5_000 }), 2_000);
    expect(await store().commit(r2, [pot], chargeContext, 2_000)).toEqual([
      { used: 2n, allowed: true, resetAtMs: null },
    ]);
  },
  'holds expire on their own, so a crashed caller never pins capacity': async (store) => {
    const sliding = bucketCheck({ key: id('tool:x'), window: { type: 'sliding', ms: 60_000 }, amount: 5n });
    const [h1, h2] = [id('h'), id('h')];
    expect((await store().reserve(reserveRequest(h1, [sliding], { expiresAtMs: 100 }), 0)).type).toBe(
      'reserved',
    );
    expect(await store().reserve(reserveRequest(h2, [sliding], { expiresAtMs: 100 }), 50)).toEqual({
      type: 'refused',
      snapshots: [{ used: 5n, allowed: false, resetAtMs: 60_050 }],
    });
    expect((await store().reserve(reserveRequest(h2, [sliding], { expiresAtMs: 300 }), 100)).type).toBe(
      'reserved',
    );
  },
  'a reconfigured window starts the bucket over': async (store) => {
    const key = id('budget:w');
    const [w1, w2] = [id('w'), id('w')];
    await store().reserve(reserveRequest(w1, [bucketCheck({ key })]), 0);
    await store().commit(w1, [bucketCheck({ key })], chargeContext, 0);
    const resized = bucketCheck({ key, window: { type: 'sliding', ms: 10 } });
    expect((await store().peek([resized], 1))[0]).toEqual({ used: 0n, allowed: true, resetAtMs: 11 });
    expect(await store().reserve(reserveRequest(w2, [resized]), 1)).toMatchObject({ type: 'reserved' });
    expect(await store().commit(w2, [resized], chargeContext, 1)).toEqual([
      { used: 2n, allowed: true, resetAtMs: 11 },
    ]);
    // The old session charge is gone for good, even when the old window comes back.
    expect((await store().peek([bucketCheck({ key })], 2))[0]?.used).toBe(0n);
  },
  'sliding windows replenish as charges age out; reset_at is the oldest charge + window': async (store) => {
    const rate = bucketCheck({
      family: 'rate',
      epoch: 0,
      key: id('tool:send:rule:0'),
      amount: 1n,
      limit: 2n,
      window: { type: 'sliding', ms: 1_000 },
    });
    for (const at of [0, 400]) {
      const reservation = id('s');
      expect((await store().reserve(reserveRequest(reservation, [rate]), at)).type).toBe('reserved');
      await store().commit(reservation, [rate], chargeContext, at);
    }
    const s3 = id('s');
    expect(await store().reserve(reserveRequest(s3, [rate]), 500)).toEqual({
      type: 'refused',
      snapshots: [{ used: 2n, allowed: false, resetAtMs: 1_000 }],
    });
    expect(await store().reserve(reserveRequest(s3, [rate]), 1_000)).toEqual({
      type: 'reserved',
      snapshots: [{ used: 1n, allowed: true, resetAtMs: 1_400 }],
    });
    expect(await store().peek([rate], 1_000)).toEqual([{ used: 2n, allowed: false, resetAtMs: 1_400 }]);
  },
  'is all-or-nothing: one refusing bucket places no hold anywhere': async (store) => {
    const roomy = bucketCheck({ key: id('budget:roomy'), limit: 100n });
    const tight = bucketCheck({ key: id('budget:tight'), limit: 1n });
    expect(await store().reserve(reserveRequest(id('n'), [roomy, tight]), 0)).toEqual({
      type: 'refused',
      snapshots: [
        { used: 0n, allowed: true, resetAtMs: null },
        { used: 0n, allowed: false, resetAtMs: null },
      ],
    });
    expect((await store().peek([roomy], 0))[0]?.used).toBe(0n);
  },
  'break-glass checks (`hold`) hold past the limit; release frees the hold': async (store) => {
    const breaking = bucketCheck({ key: id('budget:glass'), amount: 9n, onBreach: 'hold' });
    const [g1, g2] = [id('g'), id('g')];
    expect(await store().reserve(reserveRequest(g1, [breaking]), 0)).toEqual({
      type: 'reserved',
      snapshots: [{ used: 0n, allowed: false, resetAtMs: null }],
    });
    expect((await store().peek([breaking], 1))[0]?.used).toBe(9n);
    await store().release(g1);
    expect((await store().peek([breaking], 1))[0]?.used).toBe(0n);
    // A commit is recorded even past the limit: the call already happened.
    await store().reserve(reserveRequest(g2, [breaking]), 2);
    expect(await store().commit(g2, [breaking], chargeContext, 2)).toEqual([
      { used: 9n, allowed: false, resetAtMs: null },
    ]);
  },
  'caps distinct live sender-scoped buckets, counting a bucket again once it has emptied': async (store) => {
    const sender = (who: string): BucketCheck =>
      bucketCheck({
        family: 'rate',
        epoch: 0,
        key: id(`sender:${who}:rule:0`),
        amount: 1n,
        limit: 1n,
        window: { type: 'sliding', ms: 1_000 },
        senderScoped: true,
      });
    const [a, b, c] = [sender('a'), sender('b'), sender('c')];
    const base = 10_000_000; // later than every other case's activity, so their buckets are empty
    const capped = { maxSenderKeys: 2, expiresAtMs: base + 500 };
    const [k1, k2, k3, k4, k5] = [id('k'), id('k'), id('k'), id('k'), id('k')];
    expect((await store().reserve(reserveRequest(k1, [a], capped), base)).type).toBe('reserved');
    expect((await store().reserve(reserveRequest(k2, [b], capped), base)).type).toBe('reserved');
    expect(await store().reserve(reserveRequest(k3, [c], capped), base)).toEqual({
      type: 'capacity_exhausted',
    });
    // An already-live sender bucket needs no new capacity.
    expect((await store().reserve(reserveRequest(k4, [a], capped), base)).type).toBe('refused');
    await store().release(k2);
    expect((await store().reserve(reserveRequest(k3, [c], capped), base)).type).toBe('reserved');
    // Once the holds have expired every sender bucket is empty again and b fits.
    const later = { ...capped, expiresAtMs: base + 2_000 };
    expect((await store().reserve(reserveRequest(k5, [b], later), base + 600)).type).toBe('reserved');
  },
  'retires a budget the policy dropped: added back unchanged, it starts a fresh epoch': async (store) => {
    const pot = { name: id('retire-me'), identity: '[10,"USD","1h","global"]' };
    const epochOf = async (budgets: (typeof pot)[]) =>
      (await store().reconcileBudgets(budgets)).get(pot.name);
    expect(await epochOf([pot])).toBe(1);
    expect(await epochOf([pot])).toBe(1);
    expect(await store().reconcileBudgets([])).toEqual(new Map());
    expect(await epochOf([pot])).toBe(2);
    expect(await epochOf([pot])).toBe(2);
    expect(await epochOf([{ ...pot, identity: '[20,"USD","1h","global"]' }])).toBe(3);
  },
  'writes budget charges to the ledger with their epoch, kind and audit record id, once': async (store) => {
    const budgetName = id('payments');
    const key = `budget:${budgetName}:global`;
    const pot = bucketCheck({ key, epoch: 2, amount: 3_000_000n, limit: 20_000_000n });
    const rate = bucketCheck({
      family: 'rate',
      epoch: 0,
      key: id('tool:pay:rule:0'),
      amount: 1n,
      limit: 10n,
    });
    const reservation = id('l');
    await store().reserve(reserveRequest(reservation, [rate, pot]), 7);
    const ledger = { budgetName, kind: 'approved_overage' as const, currency: 'USD' };
    const charges: CommitCharge[] = [rate, { ...pot, amount: 4_500_000n, ledger }];
    const commitContext = { auditRecordId: 'rec-1', toolName: 'pay', origin: 'sdk' };
    await store().commit(reservation, charges, commitContext, 7);
    await store().commit(reservation, charges, commitContext, 8);
    const rows = (await store().ledger()).filter((row) => row.budgetName === budgetName);
    expect(rows).toEqual([
      {
        budgetName,
        epoch: 2,
        bucketKey: key,
        kind: 'approved_overage',
        amount: 4_500_000n,
        currency: 'USD',
        toolName: 'pay',
        origin: 'sdk',
        auditRecordId: 'rec-1',
        timestampMs: 7,
      },
    ]);
    // A new epoch is a new pot: the epoch-2 spend does not count against epoch 3.
    expect((await store().peek([{ ...pot, epoch: 3 }], 9))[0]?.used).toBe(0n);
    expect((await store().peek([pot], 9))[0]?.used).toBe(4_500_000n);
  },
  'commits once when the same reservation is committed concurrently': async (store) => {
    const pot = bucketCheck({ key: id('budget:twice'), amount: 1n, limit: 100n });
    const reservation = id('c');
    await store().reserve(reserveRequest(reservation, [pot]), 0);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => store().commit(reservation, [pot], chargeContext, 0)),
    );
    for (const snapshots of results)
      expect(snapshots).toEqual([{ used: 1n, allowed: true, resetAtMs: null }]);
    expect((await store().peek([pot], 0))[0]?.used).toBe(1n);
  },
  'reserves and commits nothing when a call has no checks': async (store) => {
    const reservation = id('e');
    expect(await store().peek([], 0)).toEqual([]);
    expect(await store().reserve(reserveRequest(reservation, []), 0)).toEqual({
      type: 'reserved',
      snapshots: [],
    });
    expect(await store().commit(reservation, [], chargeContext, 0)).toEqual([]);
  },
  'admits exactly 50 of 200 concurrent reservations against a budget that admits 50': async (store) => {
    const pot = bucketCheck({
      key: id('budget:race'),
      amount: 1_000_000n,
      limit: 50_000_000n,
      window: { type: 'sliding', ms: 3_600_000 },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        store().reserve(reserveRequest(id('race'), [pot], { expiresAtMs: 60_000 }), 1),
      ),
    );
    expect(outcomes.filter((o) => o.type === 'reserved')).toHaveLength(50);
    expect(outcomes.filter((o) => o.type === 'refused')).toHaveLength(150);
    expect((await store().peek([pot], 2))[0]).toMatchObject({ used: 50_000_000n, allowed: false });
  },
  'counts money of any size exactly: charges of 1e20 units, a limit of 1e25, sums past 2^63 micro-units':
    async (store) => {
      const budgetName = id('huge');
      const limit = 10n ** 25n * UNIT;
      const pot = bucketCheck({
        key: `budget:${budgetName}:global`,
        amount: 10n ** 20n * UNIT,
        limit,
        window: { type: 'sliding', ms: 60_000 },
      });
      const [r1, r2] = [id('m'), id('m')];
      const ledger = { budgetName, kind: 'spend' as const, currency: 'USD' };
      await store().reserve(reserveRequest(r1, [pot]), 0);
      expect(await store().commit(r1, [{ ...pot, ledger }], chargeContext, 0)).toEqual([
        { used: 10n ** 26n, allowed: true, resetAtMs: 60_000 },
      ]);
      // What is left fits exactly; one micro-unit more does not.
      const rest = { ...pot, amount: limit - 10n ** 26n };
      expect(await store().reserve(reserveRequest(r2, [rest]), 1)).toEqual({
        type: 'reserved',
        snapshots: [{ used: 10n ** 26n, allowed: true, resetAtMs: 60_000 }],
      });
      expect(await store().peek([{ ...pot, amount: 1n }], 2)).toEqual([
        { used: limit, allowed: false, resetAtMs: 60_000 },
      ]);
      // The actual amount (1e20 units and one micro-unit) replaces the hold, to the micro-unit.
      const actual = 10n ** 26n + 1n;
      expect(await store().commit(r2, [{ ...pot, amount: actual, ledger }], chargeContext, 2)).toEqual([
        { used: 2n * 10n ** 26n + 1n, allowed: true, resetAtMs: 60_000 },
      ]);
      const rows = (await store().ledger()).filter((row) => row.budgetName === budgetName);
      expect(rows.map((row) => row.amount)).toEqual([10n ** 26n, actual]);
    },
  'holds, releases and charges the largest finite amount (Number.MAX_VALUE in micro-units)': async (
    store,
  ) => {
    const largest = 17_976_931_348_623_157n * 10n ** 298n;
    const spend = bucketCheck({
      family: 'spend',
      epoch: 0,
      key: id('tool:buy:rule:0'),
      amount: largest,
      limit: 10n ** 25n * UNIT,
      window: { type: 'sliding', ms: 60_000 },
    });
    const [h1, h2] = [id('x'), id('x')];
    expect(await store().reserve(reserveRequest(h1, [spend]), 0)).toEqual({
      type: 'refused',
      snapshots: [{ used: 0n, allowed: false, resetAtMs: 60_000 }],
    });
    const roomy = { ...spend, limit: 3n * largest, onBreach: 'hold' as const };
    expect((await store().reserve(reserveRequest(h1, [roomy]), 0)).type).toBe('reserved');
    expect((await store().peek([roomy], 1))[0]?.used).toBe(largest);
    await store().release(h1);
    expect((await store().peek([roomy], 1))[0]?.used).toBe(0n);
    await store().reserve(reserveRequest(h2, [roomy]), 2);
    await store().commit(h2, [roomy], chargeContext, 2);
    expect(await store().peek([roomy], 3)).toEqual([{ used: largest, allowed: true, resetAtMs: 60_002 }]);
    expect(await store().peek([{ ...roomy, amount: 2n * largest + 1n }], 3)).toEqual([
      { used: largest, allowed: false, resetAtMs: 60_002 },
    ]);
  },
};

export function describeLimitStoreContract(
  name: string,
  makeStore: ContractFactory<LedgeredLimitStore>,
): void {
  describe(`${name}: LimitStore contract`, () => {
    const subject = subjectPerCase(makeStore);
    for (const [title, run] of Object.entries(CASES)) it(title, () => run(() => subject().store));
  });
}
