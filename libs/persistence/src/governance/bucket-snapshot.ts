/**
 * Pure arithmetic of one bucket, the same as the in-memory SlidingBucket: what a row of `limit_buckets`
 * plus its charges and holds means for a check at a given instant.
 */
import { type BucketCheck, type BucketRef, type BucketSnapshot, type BucketWindow } from '@helios/governance';

/** `family|epoch|key`: neither family nor epoch contains '|', so distinct refs never share an id. */
export function bucketId(ref: BucketRef): string {
  return `${ref.family}|${ref.epoch}|${ref.key}`;
}

export function windowType(window: BucketWindow): 'sliding' | 'session' {
  return window.type;
}

/** Sliding window length, or a session pot's idle TTL. */
export function windowMs(window: BucketWindow): number {
  return window.type === 'sliding' ? window.ms : window.idleTtlMs;
}

/** What the database says about one bucket at `nowMs` (see readBucketStats). */
export interface BucketStats {
  readonly windowType: 'sliding' | 'session';
  readonly windowMs: number;
  readonly lastActivityMs: number;
  /** Charges inside the sliding window (all of them for a session pot). */
  readonly charged: bigint;
  /** Oldest charge inside the sliding window; null when none (or a session pot). */
  readonly oldestMs: number | null;
  /** Unexpired holds, excluding the asking reservation's own. */
  readonly held: bigint;
  /** Any unexpired hold at all (the asking reservation's included). */
  readonly liveHold: boolean;
}

/** A check against a bucket configured with another window sees a new, empty bucket. */
export function sameWindow(check: BucketCheck, stats: BucketStats): boolean {
  return stats.windowType === windowType(check.window) && stats.windowMs === windowMs(check.window);
}

/** A session pot idle past its TTL with nothing held is over: its charges no longer count. */
export function isIdleSessionPot(stats: BucketStats, nowMs: number): boolean {
  return stats.windowType === 'session' && !stats.liveHold && nowMs - stats.lastActivityMs > stats.windowMs;
}

/** The snapshot a check sees before it places anything (`used` = charges in the window + others' holds). */
export function checkSnapshot(
  check: BucketCheck,
  stats: BucketStats | undefined,
  nowMs: number,
): BucketSnapshot {
  if (stats === undefined || !sameWindow(check, stats)) {
    return {
      used: 0n,
      allowed: check.amount <= check.limit,
      resetAtMs: check.window.type === 'sliding' ? nowMs + check.window.ms : null,
    };
  }
  const used = usedOf(stats, nowMs);
  return { used, allowed: used + check.amount <= check.limit, resetAtMs: resetAtMs(stats, nowMs) };
}

/** The snapshot after a commit: `used` already includes the charge, so allowed means "still within". */
export function committedSnapshot(limit: bigint, stats: BucketStats, nowMs: number): BucketSnapshot {
  const used = usedOf(stats, nowMs);
  return { used, allowed: used <= limit, resetAtMs: resetAtMs(stats, nowMs) };
}

function usedOf(stats: BucketStats, nowMs: number): bigint {
  return (isIdleSessionPot(stats, nowMs) ? 0n : stats.charged) + stats.held;
}

function resetAtMs(stats: BucketStats, nowMs: number): number | null {
  if (stats.windowType === 'session') return null;
  return (stats.oldestMs ?? nowMs) + stats.windowMs;
}
