/** One counter bucket in memory: timestamped charges (pruned as they leave the window) plus live holds. */
import { isIdleSessionPot, type BucketState } from '../limit-arithmetic.js';
import { type BucketWindow } from '../limit-store.js';

interface Charge {
  readonly atMs: number;
  readonly amount: bigint;
}

interface Hold {
  readonly amount: bigint;
  readonly expiresAtMs: number;
}

export class SlidingBucket {
  private charges: Charge[] = [];
  private chargedSum = 0n;
  private readonly holds = new Map<string, Hold>();
  private lastActivityMs: number;

  constructor(
    readonly window: BucketWindow,
    nowMs: number,
  ) {
    this.lastActivityMs = nowMs;
  }

  /** Committed charges in the window plus unexpired holds (other than `exceptReservation`). */
  used(nowMs: number, exceptReservation?: string): bigint {
    this.prune(nowMs);
    let used = this.chargedSum;
    for (const [id, hold] of this.holds) {
      if (id !== exceptReservation) used += hold.amount;
    }
    return used;
  }

  /** The bucket as limit-arithmetic.ts reads it, after pruning. */
  state(nowMs: number, exceptReservation?: string): BucketState {
    const held = this.used(nowMs, exceptReservation) - this.chargedSum;
    return {
      window: this.window,
      lastActivityMs: this.lastActivityMs,
      charged: this.chargedSum,
      oldestChargeMs: this.window.type === 'sliding' ? (this.charges[0]?.atMs ?? null) : null,
      held,
      liveHold: this.holds.size > 0,
    };
  }

  hold(reservationId: string, amount: bigint, expiresAtMs: number, nowMs: number): void {
    this.holds.set(reservationId, { amount, expiresAtMs });
    this.lastActivityMs = nowMs;
  }

  release(reservationId: string): void {
    this.holds.delete(reservationId);
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
    return this.charges.length === 0 && this.holds.size === 0;
  }

  private prune(nowMs: number): void {
    for (const [id, hold] of this.holds) {
      if (hold.expiresAtMs <= nowMs) this.holds.delete(id);
    }
    if (this.window.type === 'session') {
      // An idle session pot is collected: the session is over.
      if (isIdleSessionPot(this.window, this.lastActivityMs, this.holds.size > 0, nowMs)) {
        this.charges = [];
        this.chargedSum = 0n;
      }
      return;
    }
    const horizon = nowMs - this.window.ms;
    let drop = 0;
    while (drop < this.charges.length && (this.charges[drop] as Charge).atMs <= horizon) {
      this.chargedSum -= (this.charges[drop] as Charge).amount;
      drop += 1;
    }
    if (drop > 0) this.charges = this.charges.slice(drop);
  }
}
