/**
 * A serial reference model of the LimitStore, written to be obviously right rather than fast: every
 * bucket keeps a plain list of its charges, every hold sits in one list, and each question is answered
 * by scanning them. It shares no code with `limit-arithmetic.ts`, so a slip there shows up as a
 * disagreement. The rules, from the reference (§1.6–1.7) and the interface's comments:
 *
 * - A sliding-window charge counts while `now < chargedAt + window`, and stops counting exactly at
 *   `chargedAt + window`. A session pot never replenishes; once it has been idle (`now - lastActivity >
 *   idleTtl`) with no live hold on it, the session is over and its charges are forgotten for good.
 * - A hold counts (and keeps its pot alive) while `now < expiresAtMs`.
 * - Limits are inclusive: a check is allowed iff used + amount ≤ limit, where used = counting charges +
 *   live holds of other reservations. `resetAtMs` is the oldest counting charge + window (now + window
 *   when there is none), null for session pots.
 * - `reserve` is all-or-nothing: any refusing (`onBreach: 'refuse'`) check over its limit → refused and
 *   nothing placed; then the sender-key capacity; then a hold on every bucket (activity: now).
 * - `commit` drops the reservation's holds and records its charges (even past the limit), answering
 *   post-commit snapshots; a second commit of the same id answers the first one's snapshots and
 *   charges nothing. `release` drops the holds; unknown ids are no-ops.
 *
 * Not modelled (the generators never produce them): a check whose window differs from its bucket's,
 * two checks of one call on the same bucket, a reservation id reserved twice, time going backwards.
 */
import {
  type BucketCheck,
  type BucketSnapshot,
  type BucketWindow,
  type CommitCharge,
  type CommitContext,
  type LedgerEntry,
  type ReserveOutcome,
  type ReserveRequest,
} from '../../stores/limit-store.js';

interface ModelCharge {
  readonly atMs: number;
  readonly amount: bigint;
}

interface ModelBucket {
  readonly window: BucketWindow;
  readonly senderScoped: boolean;
  lastActivityMs: number;
  charges: ModelCharge[];
}

interface ModelHold {
  readonly reservationId: string;
  readonly bucket: string;
  readonly amount: bigint;
  readonly expiresAtMs: number;
}

const sum = (amounts: readonly bigint[]): bigint => amounts.reduce((total, amount) => total + amount, 0n);

/** The model's name for a bucket (the stores' `bucketId` shape, restated rather than imported). */
export const modelBucketId = (check: BucketCheck): string => `${check.family}|${check.epoch}|${check.key}`;

export class LimitStoreModel {
  private readonly buckets = new Map<string, ModelBucket>();
  private holds: ModelHold[] = [];
  private readonly commits = new Map<string, readonly BucketSnapshot[]>();
  private readonly ledgerRows: LedgerEntry[] = [];

  peek(checks: readonly BucketCheck[], nowMs: number): BucketSnapshot[] {
    this.passTime(nowMs);
    return checks.map((check) => this.snapshot(check, nowMs, null));
  }

  reserve(request: ReserveRequest, nowMs: number): ReserveOutcome {
    this.passTime(nowMs);
    const snapshots = request.checks.map((check) => this.snapshot(check, nowMs, request.reservationId));
    if (request.checks.some((check, i) => check.onBreach === 'refuse' && !snapshots[i]?.allowed))
      return { type: 'refused', snapshots };
    if (!this.senderRoomFor(request)) return { type: 'capacity_exhausted' };
    for (const check of request.checks) {
      const bucket = this.bucketFor(check, nowMs);
      bucket.lastActivityMs = nowMs;
      this.holds.push({
        reservationId: request.reservationId,
        bucket: modelBucketId(check),
        amount: check.amount,
        expiresAtMs: request.expiresAtMs,
      });
    }
    return { type: 'reserved', snapshots };
  }

  commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): readonly BucketSnapshot[] {
    const previous = this.commits.get(reservationId);
    if (previous !== undefined) return previous;
    this.passTime(nowMs);
    this.holds = this.holds.filter((hold) => hold.reservationId !== reservationId);
    const snapshots = charges.map((charge) => {
      const bucket = this.bucketFor(charge, nowMs);
      bucket.charges.push({ atMs: nowMs, amount: charge.amount });
      bucket.lastActivityMs = nowMs;
      this.ledgerRows.push(...ledgerRows(charge, context, nowMs));
      const used = this.usedOf(modelBucketId(charge), null);
      return { used, allowed: used <= charge.limit, resetAtMs: this.resetAt(bucket, nowMs) };
    });
    this.commits.set(reservationId, snapshots);
    return snapshots;
  }

  release(reservationId: string): void {
    this.holds = this.holds.filter((hold) => hold.reservationId !== reservationId);
  }

  /** Budget ledger rows, oldest first. */
  ledger(): readonly LedgerEntry[] {
    return this.ledgerRows;
  }

  /** When the bucket's oldest counting charge leaves its sliding window; undefined when none does. */
  windowEdgeMs(check: BucketCheck, nowMs: number): number | undefined {
    this.passTime(nowMs);
    const bucket = this.buckets.get(modelBucketId(check));
    if (bucket?.window.type !== 'sliding' || bucket.charges.length === 0) return undefined;
    return Math.min(...bucket.charges.map((charge) => charge.atMs)) + bucket.window.ms;
  }

  /** The last instant a session pot is still active without a hold (lastActivity + idleTtl). */
  idleEdgeMs(check: BucketCheck): number | undefined {
    const bucket = this.buckets.get(modelBucketId(check));
    if (bucket?.window.type !== 'session') return undefined;
    return bucket.lastActivityMs + bucket.window.idleTtlMs;
  }

  /**
   * The instants after `nowMs` at which some answer may change, with the one before each: every
   * counting charge's window edge, every hold's expiry, every session pot's idle edge.
   */
  edgesAfter(nowMs: number): number[] {
    this.passTime(nowMs);
    const edges: number[] = this.holds.map((hold) => hold.expiresAtMs);
    for (const bucket of this.buckets.values()) {
      const { window } = bucket;
      if (window.type === 'sliding') edges.push(...bucket.charges.map((charge) => charge.atMs + window.ms));
      else edges.push(bucket.lastActivityMs + window.idleTtlMs + 1);
    }
    const around = edges.flatMap((edge) => [edge - 1, edge]).filter((instant) => instant > nowMs);
    return [...new Set(around)].sort((a, b) => a - b);
  }

  /**
   * Time passes: expired holds go, charges leave their sliding windows, and idle session pots forget.
   * Doing this lazily at each operation is exact: between two operations nothing can make an idle pot
   * active again (only a hold or a charge, which are operations), so "idle now" = "idle at some instant
   * since the last activity".
   */
  private passTime(nowMs: number): void {
    this.holds = this.holds.filter((hold) => nowMs < hold.expiresAtMs);
    for (const [id, bucket] of this.buckets) {
      const { window } = bucket;
      if (window.type === 'sliding') {
        bucket.charges = bucket.charges.filter((charge) => nowMs < charge.atMs + window.ms);
      } else if (nowMs - bucket.lastActivityMs > window.idleTtlMs && !this.hasHold(id)) {
        bucket.charges = [];
      }
    }
  }

  private snapshot(check: BucketCheck, nowMs: number, asking: string | null): BucketSnapshot {
    const id = modelBucketId(check);
    const bucket = this.buckets.get(id);
    const used = this.usedOf(id, asking);
    const resetAtMs =
      bucket === undefined
        ? check.window.type === 'sliding'
          ? nowMs + check.window.ms
          : null
        : this.resetAt(bucket, nowMs);
    return { used, allowed: used + check.amount <= check.limit, resetAtMs };
  }

  /** Counting charges plus live holds, except those of the asking reservation. */
  private usedOf(id: string, asking: string | null): bigint {
    const charged = sum((this.buckets.get(id)?.charges ?? []).map((charge) => charge.amount));
    const held = sum(
      this.holds
        .filter((hold) => hold.bucket === id && hold.reservationId !== asking)
        .map((hold) => hold.amount),
    );
    return charged + held;
  }

  private resetAt(bucket: ModelBucket, nowMs: number): number | null {
    if (bucket.window.type === 'session') return null;
    const oldest = bucket.charges.length === 0 ? nowMs : Math.min(...bucket.charges.map((c) => c.atMs));
    return oldest + bucket.window.ms;
  }

  /** Distinct new sender buckets of the call + live sender buckets ≤ maxSenderKeys. */
  private senderRoomFor(request: ReserveRequest): boolean {
    const fresh = new Set(
      request.checks
        .filter((check) => check.senderScoped && !this.isLive(modelBucketId(check)))
        .map(modelBucketId),
    );
    if (fresh.size === 0) return true;
    const live = [...this.buckets].filter(([id, bucket]) => bucket.senderScoped && this.isLive(id));
    return live.length + fresh.size <= request.maxSenderKeys;
  }

  /** A bucket with a counting charge or a live hold (time has passed already). */
  private isLive(id: string): boolean {
    return (this.buckets.get(id)?.charges.length ?? 0) > 0 || this.hasHold(id);
  }

  private hasHold(id: string): boolean {
    return this.holds.some((hold) => hold.bucket === id);
  }

  private bucketFor(check: BucketCheck, nowMs: number): ModelBucket {
    const id = modelBucketId(check);
    const existing = this.buckets.get(id);
    if (existing !== undefined) return existing;
    const made: ModelBucket = {
      window: check.window,
      senderScoped: check.senderScoped,
      lastActivityMs: nowMs,
      charges: [],
    };
    this.buckets.set(id, made);
    return made;
  }
}

/** The ledger row a budget charge writes (none for a rule-limit charge). */
function ledgerRows(charge: CommitCharge, context: CommitContext, nowMs: number): LedgerEntry[] {
  const { ledger } = charge;
  if (ledger === undefined) return [];
  return [
    {
      budgetName: ledger.budgetName,
      epoch: charge.epoch,
      bucketKey: charge.key,
      kind: ledger.kind,
      amount: charge.amount,
      currency: ledger.currency,
      toolName: context.toolName,
      origin: context.origin,
      auditRecordId: context.auditRecordId,
      timestampMs: nowMs,
    },
  ];
}
