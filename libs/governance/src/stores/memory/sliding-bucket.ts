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

const ONE = 1n;

/** Retired charges are dropped from the arrays once they are this many and half of them. */
const COMPACT_AFTER = 1_024;

export class SlidingBucket {
  /** Charges oldest first; those before `head` are retired. */
  // Parallel arrays, not an object per charge: a busy hour-long window holds millions of them, and the
  // garbage collector walks every object. Charges of one millisecond share an entry (they retire
  // together), and a rate's amount of 1 is one shared value.
  private chargeAt: number[] = [];
  private chargeAmount: bigint[] = [];
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
    for (const charge of charges) bucket.append(charge.atMs, charge.amount);
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
    return this.chargeAt[this.head] ?? null;
  }

  /** Charge entries kept (a millisecond's charges share one): what its memory grows with. */
  get entries(): number {
    return this.chargeAt.length - this.head;
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
      oldestChargeMs: this.window.type === 'sliding' ? (this.chargeAt[this.head] ?? null) : null,
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
    this.append(nowMs, amount);
    this.lastActivityMs = nowMs;
  }

  /** Nothing charged in the window and nothing held: the bucket can be collected. */
  isEmpty(nowMs: number): boolean {
    this.prune(nowMs);
    return this.head === this.chargeAt.length && this.holds.size === 0;
  }

  private prune(nowMs: number): void {
    if (nowMs >= this.earliestExpiryMs) this.retireExpiredHolds(nowMs);
    if (this.window.type === 'session') {
      // An idle session pot is collected: the session is over.
      if (isIdleSessionPot(this.window, this.lastActivityMs, this.holds.size > 0, nowMs)) {
        this.chargeAt = [];
        this.chargeAmount = [];
        this.head = 0;
        this.chargedSum = 0n;
      }
      return;
    }
    const horizon = nowMs - this.window.ms;
    while (this.head < this.chargeAt.length && (this.chargeAt[this.head] as number) <= horizon) {
      this.chargedSum -= this.chargeAmount[this.head] as bigint;
      this.head += 1;
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.chargeAt.length) {
      this.chargeAt = this.chargeAt.slice(this.head);
      this.chargeAmount = this.chargeAmount.slice(this.head);
      this.head = 0;
    }
  }

  /** A charge at `atMs` (not before the last one kept: a store's clock, or rows oldest first). */
  private append(atMs: number, amount: bigint): void {
    this.chargedSum += amount;
    const last = this.chargeAt.length - 1;
    if (last >= this.head && this.chargeAt[last] === atMs) {
      this.chargeAmount[last] = (this.chargeAmount[last] as bigint) + amount;
      return;
    }
    this.chargeAt.push(atMs);
    this.chargeAmount.push(amount === 1n ? ONE : amount);
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
