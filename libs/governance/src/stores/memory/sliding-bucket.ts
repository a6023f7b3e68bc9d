/**
 * One counter bucket in memory: timestamped charges (retired as they leave the window) plus live holds,
 * with running sums, so a check costs O(1) in the window's fill as in the PostgreSQL store: each charge
 * is added once and retired once (the queue's head moves past it), and holds are scanned for expiry only
 * once the earliest of them is due.
 */
import { isIdleSessionPot, type BucketState } from '../limit-arithmetic.js';
import { type BucketWindow } from '../limit-store.js';

export interface Charge {
  readonly atMs: number;
  readonly amount: bigint;
}

export interface Hold {
  readonly amount: bigint;
  readonly expiresAtMs: number;
}

/** Retired charges are dropped from the array once they are this many and half of it. */
const COMPACT_AFTER = 1_024;

export class SlidingBucket {
  /** Charges oldest first; those before `head` are retired. */
  private charges: Charge[] = [];
  private head = 0;
  private chargedSum = 0n;
  private readonly holds = new Map<string, Hold>();
  private heldSum = 0n;
  /** No hold expires before this instant (a lower bound: the scan that finds expired holds resets it). */
  private earliestExpiryMs = Infinity;
  private lastActivityMs: number;

  constructor(
    readonly window: BucketWindow,
    nowMs: number,
  ) {
    this.lastActivityMs = nowMs;
  }

  /**
   * A bucket as a durable store kept it: its charges (oldest first), its live holds and its last
   * activity. A store that decides in memory for a while (libs/persistence's local limit authority)
   * starts from this.
   */
  static restore(
    window: BucketWindow,
    lastActivityMs: number,
    charges: readonly Charge[],
    holds: ReadonlyMap<string, Hold>,
  ): SlidingBucket {
    const bucket = new SlidingBucket(window, lastActivityMs);
    for (const charge of charges) {
      bucket.charges.push(charge);
      bucket.chargedSum += charge.amount;
    }
    for (const [id, hold] of holds) {
      bucket.holds.set(id, hold);
      bucket.heldSum += hold.amount;
      bucket.earliestExpiryMs = Math.min(bucket.earliestExpiryMs, hold.expiresAtMs);
    }
    return bucket;
  }

  /** Unexpired holds by reservation id (a store handing the bucket back to a durable form). */
  liveHolds(nowMs: number): ReadonlyMap<string, Hold> {
    this.prune(nowMs);
    return this.holds;
  }

  /** Its oldest charge that still counts (any window), or null: every earlier one is gone. */
  oldestCounting(nowMs: number): number | null {
    this.prune(nowMs);
    return this.charges[this.head]?.atMs ?? null;
  }

  /** Its last charge or hold (a session pot's idle clock). */
  get lastActivity(): number {
    return this.lastActivityMs;
  }

  /** Committed charges in the window plus unexpired holds (other than `exceptReservation`). */
  used(nowMs: number, exceptReservation?: string): bigint {
    this.prune(nowMs);
    const own = exceptReservation === undefined ? undefined : this.holds.get(exceptReservation);
    return this.chargedSum + this.heldSum - (own?.amount ?? 0n);
  }

  /** The bucket as limit-arithmetic.ts reads it, after pruning. */
  state(nowMs: number, exceptReservation?: string): BucketState {
    const held = this.used(nowMs, exceptReservation) - this.chargedSum;
    return {
      window: this.window,
      lastActivityMs: this.lastActivityMs,
      charged: this.chargedSum,
      oldestChargeMs: this.window.type === 'sliding' ? (this.charges[this.head]?.atMs ?? null) : null,
      held,
      liveHold: this.holds.size > 0,
    };
  }

  hold(reservationId: string, amount: bigint, expiresAtMs: number, nowMs: number): void {
    this.release(reservationId);
    this.holds.set(reservationId, { amount, expiresAtMs });
    this.heldSum += amount;
    this.earliestExpiryMs = Math.min(this.earliestExpiryMs, expiresAtMs);
    this.lastActivityMs = nowMs;
  }

  release(reservationId: string): void {
    const hold = this.holds.get(reservationId);
    if (hold === undefined) return;
    this.holds.delete(reservationId);
    this.heldSum -= hold.amount;
  }

  /** Brought up to date at `nowMs`, then marked active then. */
  touch(nowMs: number): void {
    this.prune(nowMs);
    this.lastActivityMs = nowMs;
  }

  charge(amount: bigint, nowMs: number): void {
    this.prune(nowMs);
    this.charges.push({ atMs: nowMs, amount });
    this.chargedSum += amount;
    this.lastActivityMs = nowMs;
  }

  /** Nothing charged in the window and nothing held: the bucket can be collected. */
  isEmpty(nowMs: number): boolean {
    this.prune(nowMs);
    return this.head === this.charges.length && this.holds.size === 0;
  }

  private prune(nowMs: number): void {
    if (nowMs >= this.earliestExpiryMs) this.retireExpiredHolds(nowMs);
    if (this.window.type === 'session') {
      // An idle session pot is collected: the session is over.
      if (isIdleSessionPot(this.window, this.lastActivityMs, this.holds.size > 0, nowMs)) {
        this.charges = [];
        this.head = 0;
        this.chargedSum = 0n;
      }
      return;
    }
    const horizon = nowMs - this.window.ms;
    while (this.head < this.charges.length && (this.charges[this.head] as Charge).atMs <= horizon) {
      this.chargedSum -= (this.charges[this.head] as Charge).amount;
      this.head += 1;
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.charges.length) {
      this.charges = this.charges.slice(this.head);
      this.head = 0;
    }
  }

  private retireExpiredHolds(nowMs: number): void {
    let earliest = Infinity;
    for (const [id, hold] of this.holds) {
      if (hold.expiresAtMs <= nowMs) this.release(id);
      else earliest = Math.min(earliest, hold.expiresAtMs);
    }
    this.earliestExpiryMs = earliest;
  }
}
