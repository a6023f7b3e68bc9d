/**
 * The arithmetic every LimitStore shares, whatever holds its rows: bucket identity, what a bucket's
 * charges and holds mean for a check at an instant, when a session pot is over, and budget epochs.
 * The in-memory store runs on it; a database store computes the same from its rows (its SQL mirrors
 * these rules where they must run inside a statement), and the contract suites in
 * `@helios/governance/testing` hold both to it.
 */
import {
  type BucketCheck,
  type BucketRef,
  type BucketSnapshot,
  type BucketWindow,
  type CommitCharge,
  RETIRED_BUDGET_IDENTITY,
} from './limit-store.js';

/** The ids of refs made without one, made once: a call's checks are asked for their bucket many times. */
const bucketIds = new WeakMap<BucketRef, string>();

/** `family|epoch|key`: neither family nor epoch contains '|', so distinct refs never share an id. */
export function bucketIdOf(family: BucketRef['family'], epoch: number, key: string): string {
  return `${family}|${epoch}|${key}`;
}

/**
 * The ref's bucket. The same ref answers the same string object, whose hash V8 keeps: a freshly
 * concatenated key is flattened and hashed again at every Map lookup (measured here: ~500 ns per lookup
 * in a map of 12,000 buckets, ~150 ns with the id kept). A ref that carries its id (`BucketRef.id`)
 * answers it; one that does not gets it from a WeakMap, whose insertions and ephemerons cost more than
 * the lookups they save on a ref made per call (refs are read-only, so a kept id never goes stale).
 */
export function bucketId(ref: BucketRef): string {
  if (ref.id !== undefined) return ref.id;
  let id = bucketIds.get(ref);
  if (id === undefined) {
    id = bucketIdOf(ref.family, ref.epoch, ref.key);
    bucketIds.set(ref, id);
  }
  return id;
}

/**
 * True when a charge's ledger row names its own bucket's pot: a budget bucket whose key is
 * `budget:<the ledger's budget>:…` (the service's budget keys; budget names have no ':'). A store can
 * then find the charge again from the ledger alone (PostgreSQL's owned pots: migration
 * OwnedBudgetLedger matches `split_part(bucket_key, ':', 2)`).
 */
export function ledgerNamesPot(charge: CommitCharge): boolean {
  const name = charge.ledger?.budgetName;
  return (
    charge.family === 'budget' &&
    name !== undefined &&
    !name.includes(':') &&
    charge.key.startsWith(`budget:${name}:`)
  );
}

/** A sliding window's length, or a session pot's idle TTL. */
export function windowLengthMs(window: BucketWindow): number {
  return window.type === 'sliding' ? window.ms : window.idleTtlMs;
}

/** The window of a stored bucket, from its type and length (how a row keeps it). */
export function bucketWindow(type: BucketWindow['type'], lengthMs: number): BucketWindow {
  return type === 'sliding' ? { type, ms: lengthMs } : { type, idleTtlMs: lengthMs };
}

/** A check against a bucket configured with another window sees a new, empty bucket (and resets it). */
export function sameWindow(a: BucketWindow, b: BucketWindow): boolean {
  return a.type === b.type && windowLengthMs(a) === windowLengthMs(b);
}

/** What a store knows of one bucket at an instant, after expired holds and aged-out charges are gone. */
export interface BucketState {
  readonly window: BucketWindow;
  /** Last charge or hold placed on it (a session pot's idle clock). */
  readonly lastActivityMs: number;
  /** Charges inside the sliding window (all of them for a session pot). */
  readonly charged: bigint;
  /** Oldest charge inside the sliding window; null when none (and for a session pot). */
  readonly oldestChargeMs: number | null;
  /** Unexpired holds, except the asking reservation's own. */
  readonly held: bigint;
  /** Any unexpired hold at all (the asking reservation's included). */
  readonly liveHold: boolean;
}

/** A session pot idle past its TTL with nothing held is over: its charges no longer count. */
export function isIdleSessionPot(
  window: BucketWindow,
  lastActivityMs: number,
  liveHold: boolean,
  nowMs: number,
): boolean {
  return window.type === 'session' && !liveHold && nowMs - lastActivityMs > window.idleTtlMs;
}

/** Charges that still count plus other calls' live holds. */
export function usedOf(state: BucketState, nowMs: number): bigint {
  const idle = isIdleSessionPot(state.window, state.lastActivityMs, state.liveHold, nowMs);
  return (idle ? 0n : state.charged) + state.held;
}

/** When the oldest charge leaves a sliding window (now + window when there is none); null for session pots. */
export function resetAtMs(window: BucketWindow, oldestChargeMs: number | null, nowMs: number): number | null {
  return window.type === 'sliding' ? (oldestChargeMs ?? nowMs) + window.ms : null;
}

/** The snapshot of a check that finds `used` on its bucket, whose oldest counting charge is `oldestChargeMs`. */
export function usedSnapshot(
  check: BucketCheck,
  used: bigint,
  oldestChargeMs: number | null,
  nowMs: number,
): BucketSnapshot {
  return {
    used,
    allowed: used + check.amount <= check.limit,
    resetAtMs: resetAtMs(check.window, oldestChargeMs, nowMs),
  };
}

/** The snapshot a check sees of a bucket that holds nothing (new, or reconfigured to another window). */
export function emptySnapshot(check: BucketCheck, nowMs: number): BucketSnapshot {
  return usedSnapshot(check, 0n, null, nowMs);
}

/** The snapshot a check sees before it places anything (`used` = counting charges + others' holds). */
export function checkSnapshot(
  check: BucketCheck,
  state: BucketState | undefined,
  nowMs: number,
): BucketSnapshot {
  if (state === undefined || !sameWindow(check.window, state.window)) return emptySnapshot(check, nowMs);
  return usedSnapshot(check, usedOf(state, nowMs), state.oldestChargeMs, nowMs);
}

/** The snapshot after a commit: `used` includes the charge, so allowed means "still within the limit". */
export function committedSnapshot(limit: bigint, state: BucketState, nowMs: number): BucketSnapshot {
  const used = usedOf(state, nowMs);
  return { used, allowed: used <= limit, resetAtMs: resetAtMs(state.window, state.oldestChargeMs, nowMs) };
}

/** A budget's epoch as a store last recorded it. */
export interface BudgetEpoch {
  readonly identity: string;
  readonly epoch: number;
}

/** The epoch of a configured budget: 1 when new, kept for the same identity, the next for a changed one. */
export function nextBudgetEpoch(known: BudgetEpoch | undefined, identity: string): number {
  if (known === undefined) return 1;
  return known.identity === identity ? known.epoch : known.epoch + 1;
}

/** A budget the policy no longer names keeps its epoch under the retired identity: re-added, it starts afresh. */
export function retiredBudgetEpoch(known: BudgetEpoch): BudgetEpoch {
  return { identity: RETIRED_BUDGET_IDENTITY, epoch: known.epoch };
}
