/**
 * The random sequences the LimitStore model suite runs: a few buckets (rate and money; sliding windows
 * and session pots a few ms long; some sender-scoped) and up to `maxOps` operations over them —
 * evaluate (reserve), audit (commit, with the actual amount), not_executed (release), dry-run (peek) and
 * time passing. Operations name buckets and reservations by index; `limit-store-model-run.ts` resolves
 * them against the sequence so far, which is how the generator reaches the edges on purpose: an amount
 * exactly at (or one micro-unit past) the room left, the clock exactly at a window edge or a hold's
 * expiry, a second commit of one reservation, ids nobody reserved.
 */
import fc from 'fast-check';
import { type BucketFamily, type BucketWindow } from '../../stores/limit-store.js';

/** One bucket of a sequence, fixed for its whole run. */
export interface BucketSpec {
  readonly family: BucketFamily;
  readonly window: BucketWindow;
  /** Rate limits count slots; money limits are `limitUnits × unit` micro-units. */
  readonly limitUnits: number;
  /** 1 for rate; 1, 10^6 or 10^24 micro-units for money (sums past 2^63 included). */
  readonly unit: bigint;
  readonly senderScoped: boolean;
}

/** A money amount: whole units, or the room the bucket has left (by the model) plus a micro-unit delta. */
export type AmountSpec =
  { readonly type: 'Units'; readonly units: number } | { readonly type: 'Room'; readonly delta: -1 | 0 | 1 };

/** A bucket of the call (index into the sequence's buckets, modulo their count). */
export interface Pick {
  readonly bucket: number;
  readonly amount: AmountSpec;
  readonly onBreach: 'refuse' | 'hold';
}

/** A reservation made earlier (counting back from the latest, modulo their count), or an id nobody reserved. */
export type Target = { readonly type: 'Earlier'; readonly index: number } | { readonly type: 'Unknown' };

/** Where the clock moves: by some ms, or exactly to (or one ms either side of) an edge. */
export type Advance =
  | { readonly type: 'By'; readonly ms: number }
  | { readonly type: 'WindowEdge'; readonly bucket: number; readonly delta: -1 | 0 | 1 }
  | { readonly type: 'IdleEdge'; readonly bucket: number; readonly delta: 0 | 1 }
  | { readonly type: 'HoldExpiry'; readonly target: number; readonly delta: -1 | 0 | 1 };

export type ModelOp =
  | {
      readonly type: 'Reserve';
      readonly picks: readonly Pick[];
      readonly expiresInMs: number;
      readonly maxSenderKeys: number;
    }
  | {
      readonly type: 'Commit';
      readonly target: Target;
      /** The audit's actual amount, overriding every money charge; null keeps the reserved amounts. */
      readonly actualUnits: number | null;
      readonly overage: boolean;
      /** The charges of a commit whose target never reserved anything. */
      readonly picks: readonly Pick[];
    }
  | { readonly type: 'Release'; readonly target: Target }
  | { readonly type: 'Peek'; readonly picks: readonly Pick[] }
  | { readonly type: 'Advance'; readonly to: Advance };

export interface ModelSequence {
  readonly buckets: readonly BucketSpec[];
  readonly ops: readonly ModelOp[];
}

const MONEY_UNITS = [1n, 1_000_000n, 10n ** 24n] as const;

const windowArb = (session: boolean): fc.Arbitrary<BucketWindow> =>
  session
    ? fc.integer({ min: 1, max: 10 }).map((idleTtlMs) => ({ type: 'session' as const, idleTtlMs }))
    : fc.integer({ min: 1, max: 20 }).map((ms) => ({ type: 'sliding' as const, ms }));

/** Rule limits slide; budgets slide or are session pots. */
const bucketArb: fc.Arbitrary<BucketSpec> = fc
  .record({
    family: fc.constantFrom<BucketFamily>('rate', 'spend', 'budget', 'budget'),
    session: fc.boolean(),
    limitUnits: fc.integer({ min: 0, max: 5 }),
    unit: fc.constantFrom(...MONEY_UNITS),
    senderScoped: fc.oneof(
      { weight: 2, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
  })
  .chain(({ family, session, limitUnits, unit, senderScoped }) =>
    windowArb(family === 'budget' && session).map((window) => ({
      family,
      window,
      limitUnits,
      unit: family === 'rate' ? 1n : unit,
      senderScoped,
    })),
  );

const amountArb: fc.Arbitrary<AmountSpec> = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((units) => ({ type: 'Units' as const, units })),
  fc.constantFrom(-1 as const, 0 as const, 1 as const).map((delta) => ({ type: 'Room' as const, delta })),
);

const pickArb: fc.Arbitrary<Pick> = fc.record({
  bucket: fc.nat(3),
  amount: amountArb,
  onBreach: fc.oneof(
    { weight: 4, arbitrary: fc.constant('refuse' as const) },
    { weight: 1, arbitrary: fc.constant('hold' as const) },
  ),
});

const picksArb = fc.array(pickArb, { minLength: 1, maxLength: 3 });

const targetArb: fc.Arbitrary<Target> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .oneof(fc.constant(0), fc.nat(4), fc.nat(30))
      .map((index) => ({ type: 'Earlier' as const, index })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'Unknown' as const }) },
);

const delta3 = fc.constantFrom(-1 as const, 0 as const, 1 as const);

const advanceArb: fc.Arbitrary<Advance> = fc.oneof(
  fc
    .oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 6 }) }, fc.integer({ min: 7, max: 30 }))
    .map((ms) => ({ type: 'By' as const, ms })),
  fc.record({ type: fc.constant('WindowEdge' as const), bucket: fc.nat(3), delta: delta3 }),
  fc.record({
    type: fc.constant('IdleEdge' as const),
    bucket: fc.nat(3),
    delta: fc.constantFrom(0 as const, 1 as const),
  }),
  fc.record({ type: fc.constant('HoldExpiry' as const), target: fc.nat(30), delta: delta3 }),
);

const opArb: fc.Arbitrary<ModelOp> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('Reserve' as const),
      picks: picksArb,
      expiresInMs: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 10 }) },
        { weight: 1, arbitrary: fc.integer({ min: 11, max: 40 }) },
      ),
      maxSenderKeys: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('Commit' as const),
      target: targetArb,
      actualUnits: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
      overage: fc.boolean(),
      picks: picksArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('Release' as const), target: targetArb }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('Peek' as const), picks: picksArb }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('Advance' as const), to: advanceArb }) },
);

/** Sequences of 2–4 buckets and up to `maxOps` operations. */
export function modelSequenceArb(maxOps: number): fc.Arbitrary<ModelSequence> {
  return fc.record({
    buckets: fc.array(bucketArb, { minLength: 2, maxLength: 4 }),
    ops: fc.array(opArb, { minLength: 1, maxLength: maxOps, size: 'max' }),
  });
}
