/**
 * The LimitStore against its reference model (`limit-store-model.ts`): random interleavings of evaluate
 * (reserve), audit (commit, with the actual amount), not_executed (release), dry-run (peek) and expiry
 * (the clock reaching a hold's expiry, a window's edge, a pot's idle TTL), each answer compared with
 * the model's. Complements the example-based contract (`limit-store-contract.ts`).
 *
 * Runs share the store's data when the factory hands out one database: their keys never repeat and each
 * run's clock starts past every earlier run's activity. The sender-key capacity is store-wide, though,
 * so a database store needs a database of its own for this suite (no other suite's sender buckets).
 * fast-check prints the seed and path of a failure; pass them back (`seed`, `path`, or the environment's
 * HELIOS_LIMIT_MODEL_SEED / HELIOS_LIMIT_MODEL_PATH) to replay it.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { type ContractFactory } from './contract-subject.js';
import { type LedgeredLimitStore } from './limit-store-contract.js';
import { modelSequenceArb, type ModelSequence } from './limit-store-model-ops.js';
import { runModelSequence } from './limit-store-model-run.js';

export interface LimitStoreModelOptions {
  /** Sequences to run (default 100). */
  readonly numRuns?: number;
  /** Operations per sequence at most (default 30). */
  readonly maxOps?: number;
  /** fast-check's seed (default a fixed one, so every run of the suite tries the same sequences). */
  readonly seed?: number;
  /** fast-check's replay path of a reported failure (with its seed). */
  readonly path?: string;
  /** The case's timeout in ms (default the package's). */
  readonly timeoutMs?: number;
}

/** The fixed default seed. */
export const LIMIT_MODEL_SEED = 20_260_418;

/** The seed to run with: the given one, else HELIOS_LIMIT_MODEL_SEED, else the fixed default. */
export function limitModelSeed(given: number | undefined): number {
  const raw = process.env['HELIOS_LIMIT_MODEL_SEED'];
  return given ?? (raw === undefined || raw === '' ? LIMIT_MODEL_SEED : Number(raw));
}

/**
 * A session budget (limit 10, idle_ttl 5 ms) charged 4 at 0; a call reserves 4 at 3 and its audit lands
 * at 9, the hold live all along. The pot was never idle without a live hold, so the commit must leave
 * 8 in it; a store that drops the committing hold before asking whether the pot is idle forgets the
 * first 4 (and would then admit 6 more: 14 spent in a session capped at 10).
 */
const POT_KEPT_ALIVE_BY_ITS_HOLD: ModelSequence = {
  buckets: [
    {
      family: 'budget',
      window: { type: 'session', idleTtlMs: 5 },
      limitUnits: 10,
      unit: 1n,
      senderScoped: false,
    },
  ],
  ops: [
    { type: 'Reserve', picks: [pick(4)], expiresInMs: 50, maxSenderKeys: 0 },
    { type: 'Commit', target: { type: 'Earlier', index: 0 }, actualUnits: null, overage: false, picks: [] },
    { type: 'Advance', to: { type: 'By', ms: 3 } },
    { type: 'Reserve', picks: [pick(4)], expiresInMs: 50, maxSenderKeys: 0 },
    { type: 'Advance', to: { type: 'By', ms: 6 } },
    { type: 'Commit', target: { type: 'Earlier', index: 0 }, actualUnits: null, overage: false, picks: [] },
    { type: 'Reserve', picks: [pick(6)], expiresInMs: 50, maxSenderKeys: 0 },
  ],
};

function pick(units: number) {
  return { bucket: 0, amount: { type: 'Units' as const, units }, onBreach: 'refuse' as const };
}

export function describeLimitStoreModel(
  name: string,
  makeStore: ContractFactory<LedgeredLimitStore>,
  options: LimitStoreModelOptions = {},
): void {
  const numRuns = options.numRuns ?? 100;
  const seed = limitModelSeed(options.seed);
  const path = options.path ?? (process.env['HELIOS_LIMIT_MODEL_PATH'] || undefined);
  describe(`${name}: LimitStore against the reference model`, () => {
    it(
      `answers ${numRuns} random interleavings of reserve/commit/release/peek/expiry as the model does (seed ${seed})`,
      async () => {
        const property = fc.asyncProperty(modelSequenceArb(options.maxOps ?? 30), async (sequence) => {
          const subject = await makeStore();
          try {
            await runModelSequence(subject.store, sequence);
          } finally {
            await subject.cleanup?.();
          }
        });
        await fc.assert(property, { numRuns, seed, ...(path === undefined ? {} : { path }) });
      },
      options.timeoutMs,
    );
    // Found by this suite: both stores once forgot such a pot's charges (the hold was dropped first).
    it("keeps the charges of a session pot that only the committing call's hold kept alive past idle_ttl", async () => {
      const subject = await makeStore();
      try {
        await runModelSequence(subject.store, POT_KEPT_ALIVE_BY_ITS_HOLD);
      } finally {
        await subject.cleanup?.();
      }
    });
  });
}
