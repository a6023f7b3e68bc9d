/**
 * LimitStore admission under concurrency, as properties: K calls reserving at once over shared buckets
 * (each call a random subset of them, in random order) must be admitted as by SOME serial order — no
 * bucket past its limit, every refusal justified by what was admitted, each admitted call's reported
 * `used` exactly what the calls admitted before it on that bucket hold — and settling them at once
 * (commits with other amounts, duplicate commits, releases) must leave exactly the committed charges.
 * New sender keys admitted at once stop exactly at `maxSenderKeys`. The example-based contract has one
 * fixed race (50 of 200 on one bucket); these vary the shape. Like the model suite, a database store
 * needs a database of its own (the sender-key capacity is store-wide).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BucketCheck, type BucketSnapshot, type ReserveOutcome } from '../../stores/limit-store.js';
import { type ContractFactory, unique } from './contract-subject.js';
import { type LedgeredLimitStore } from './limit-store-contract.js';
import { limitModelSeed } from './limit-store-model-contract.js';
import { laterInstant } from './limit-store-model-run.js';

export interface LimitStoreConcurrencyOptions {
  /** Races per property (default 30). */
  readonly numRuns?: number;
  /** Calls per race at most (default 24). */
  readonly maxCalls?: number;
  /** fast-check's seed (default as the model suite's: HELIOS_LIMIT_MODEL_SEED, else the fixed one). */
  readonly seed?: number;
  readonly timeoutMs?: number;
}

interface RaceCall {
  /** Indexes into the race's buckets, in the order the call lists them. */
  readonly buckets: readonly number[];
  readonly amount: number;
  /** How the call settles once admitted: charged (with this actual amount, twice at once), or released. */
  readonly settle: { readonly type: 'Commit'; readonly actual: number } | { readonly type: 'Release' };
}

const raceArb = (maxCalls: number) =>
  fc.record({
    limits: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3 }),
    calls: fc.array(
      fc.record({
        buckets: fc.uniqueArray(fc.nat(2), { minLength: 1, maxLength: 3 }),
        amount: fc.integer({ min: 1, max: 3 }),
        settle: fc.oneof(
          fc.integer({ min: 0, max: 4 }).map((actual) => ({ type: 'Commit' as const, actual })),
          fc.constant({ type: 'Release' as const }),
        ),
      }),
      { minLength: 1, maxLength: maxCalls },
    ),
  });

const sumOf = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

/** Runs one race: reserve all at once, check the admission, settle all at once, check the charges. */
async function race(
  store: LedgeredLimitStore,
  limits: readonly number[],
  calls: readonly RaceCall[],
): Promise<void> {
  const atMs = laterInstant();
  const pots = limits.map((limit) => ({
    family: 'budget' as const,
    key: unique('budget:race:global'),
    epoch: 1,
    amount: 1n,
    limit: BigInt(limit),
    window: { type: 'sliding' as const, ms: 60_000 },
    onBreach: 'refuse' as const,
    senderScoped: false,
  }));
  const checksOf = (call: RaceCall, amount: number): BucketCheck[] =>
    [...new Set(call.buckets.map((b) => b % pots.length))].map((b) => ({
      ...(pots[b] as BucketCheck),
      amount: BigInt(amount),
    }));
  const ids = calls.map(() => unique('race'));
  const outcomes = await Promise.all(
    calls.map((call, i) =>
      store.reserve(
        {
          reservationId: ids[i] as string,
          checks: checksOf(call, call.amount),
          expiresAtMs: atMs + 1_000,
          maxSenderKeys: 0,
        },
        atMs,
      ),
    ),
  );
  const admitted = calls.filter((_call, i) => outcomes[i]?.type === 'reserved');
  const heldOn = (pot: BucketCheck): bigint =>
    sumOf(
      admitted.flatMap((call) =>
        checksOf(call, call.amount)
          .filter((c) => c.key === pot.key)
          .map((c) => c.amount),
      ),
    );
  expectSerialAdmission(
    pots,
    calls.map((call) => checksOf(call, call.amount)),
    outcomes,
    heldOn,
  );
  expect((await store.peek(pots, atMs)).map((s) => s.used)).toEqual(pots.map(heldOn));
  // Settle every admitted call at once: commits twice (a retried /audit), releases once.
  const settled = await Promise.all(
    calls.flatMap((call, i): Promise<readonly BucketSnapshot[] | null>[] => {
      if (outcomes[i]?.type !== 'reserved') return [];
      const id = ids[i] as string;
      if (call.settle.type === 'Release') return [store.release(id).then(() => null)];
      const charges = checksOf(call, call.settle.actual);
      const context = { auditRecordId: `rec-${id}`, toolName: 'race', origin: 'race' };
      return [0, 1].map(() => store.commit(id, charges, context, atMs + 1));
    }),
  );
  const commits = settled.filter((s) => s !== null);
  for (let i = 0; i < commits.length; i += 2) expect(commits[i + 1]).toEqual(commits[i]);
  const charged = (pot: BucketCheck): bigint =>
    sumOf(
      admitted.flatMap((call) =>
        call.settle.type === 'Commit' && checksOf(call, 1).some((c) => c.key === pot.key)
          ? [BigInt(call.settle.actual)]
          : [],
      ),
    );
  expect((await store.peek(pots, atMs + 2)).map((s) => s.used)).toEqual(pots.map(charged));
}

/**
 * No bucket past its limit; every refused call has a bucket the admitted calls leave no room on; and
 * per bucket, the admitted calls' reported `used`, in increasing order, are the running sums of their
 * amounts (each saw exactly the calls admitted before it).
 */
function expectSerialAdmission(
  pots: readonly BucketCheck[],
  calls: readonly BucketCheck[][],
  outcomes: readonly ReserveOutcome[],
  heldOn: (pot: BucketCheck) => bigint,
): void {
  for (const pot of pots) expect(heldOn(pot)).toBeLessThanOrEqual(pot.limit);
  calls.forEach((checks, i) => {
    const outcome = outcomes[i] as ReserveOutcome;
    expect(outcome.type).not.toBe('capacity_exhausted');
    if (outcome.type === 'refused')
      expect(checks.some((check) => heldOn(check) + check.amount > check.limit)).toBe(true);
  });
  for (const pot of pots) {
    const seen = calls.flatMap((checks, i) => {
      const outcome = outcomes[i] as ReserveOutcome;
      const at = checks.findIndex((check) => check.key === pot.key);
      if (outcome.type !== 'reserved' || at < 0) return [];
      return [{ used: outcome.snapshots[at]?.used ?? -1n, amount: (checks[at] as BucketCheck).amount }];
    });
    seen.sort((a, b) => (a.used < b.used ? -1 : a.used > b.used ? 1 : 0));
    let before = 0n;
    for (const { used, amount } of seen) {
      expect(used).toBe(before);
      before += amount;
    }
  }
}

/** K new sender keys at once under a cap of M: exactly min(K, M) admitted, the rest capacity_exhausted. */
async function senderRace(store: LedgeredLimitStore, keys: number, maxSenderKeys: number): Promise<void> {
  const atMs = laterInstant();
  const outcomes = await Promise.all(
    Array.from({ length: keys }, () => {
      const check: BucketCheck = {
        family: 'rate',
        key: unique('sender:race:rule:0'),
        epoch: 0,
        amount: 1n,
        limit: 1n,
        window: { type: 'sliding', ms: 60_000 },
        onBreach: 'refuse',
        senderScoped: true,
      };
      return store.reserve(
        { reservationId: unique('sender-race'), checks: [check], expiresAtMs: atMs + 1_000, maxSenderKeys },
        atMs,
      );
    }),
  );
  const count = (type: ReserveOutcome['type']): number => outcomes.filter((o) => o.type === type).length;
  expect([count('reserved'), count('capacity_exhausted')]).toEqual([
    Math.min(keys, maxSenderKeys),
    keys - Math.min(keys, maxSenderKeys),
  ]);
}

export function describeLimitStoreConcurrency(
  name: string,
  makeStore: ContractFactory<LedgeredLimitStore>,
  options: LimitStoreConcurrencyOptions = {},
): void {
  const settings = { numRuns: options.numRuns ?? 30, seed: limitModelSeed(options.seed) };
  const withStore = async (body: (store: LedgeredLimitStore) => Promise<void>): Promise<void> => {
    const subject = await makeStore();
    try {
      await body(subject.store);
    } finally {
      await subject.cleanup?.();
    }
  };
  describe(`${name}: LimitStore admission under concurrency`, () => {
    it(
      'admits concurrent calls over shared buckets as some serial order would, and settles them exactly',
      async () => {
        const property = fc.asyncProperty(raceArb(options.maxCalls ?? 24), ({ limits, calls }) =>
          withStore((store) => race(store, limits, calls)),
        );
        await fc.assert(property, settings);
      },
      options.timeoutMs,
    );
    it(
      'admits exactly maxSenderKeys new sender keys of a concurrent burst',
      async () => {
        const burst = fc
          .integer({ min: 1, max: options.maxCalls ?? 24 })
          .chain((keys) => fc.tuple(fc.constant(keys), fc.integer({ min: 0, max: keys + 2 })));
        const property = fc.asyncProperty(burst, ([keys, maxSenderKeys]) =>
          withStore((store) => senderRace(store, keys, maxSenderKeys)),
        );
        await fc.assert(property, settings);
      },
      options.timeoutMs,
    );
  });
}
