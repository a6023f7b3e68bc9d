/**
 * The buckets this process owns, decided in memory (see limit-authority.ts). The arithmetic is the
 * governance library's (SlidingBucket, limit-arithmetic) and every method body runs without an await,
 * so each reservation and commit is atomic against the others, as one statement of the shared path is.
 * What a commit decides is handed back as rows for the finalization to write.
 */
import {
  type SlidingBucket,
  bucketId,
  checkSnapshot,
  committedSnapshot,
  ledgerNamesPot,
  sameWindow,
  type BucketCheck,
  type BucketHold,
  type BucketSnapshot,
  type CommitCharge,
  type CommitContext,
  type ReserveOutcome,
  type ReserveRequest,
} from '@helios/governance';
import {
  type BucketLedgerRow,
  type ChargeRow,
  type CommitRow,
  type HoldRow,
  type LedgerRow,
} from './rows.js';

export interface LocalCommit {
  readonly snapshots: readonly BucketSnapshot[];
  /**
   * Rows to write; empty when the reservation was committed before (its first snapshots answered).
   * A budget charge whose ledger row names its pot has that row only (the ledger is the charge's record).
   */
  readonly charges: readonly ChargeRow[];
  readonly ledger: readonly BucketLedgerRow[];
}

/** A repeated commit answers the first one's snapshots for this long (a retried /audit comes sooner). */
const COMMITTED_MEMORY_MS = 10 * 60 * 1000;

export class LocalLimits {
  private readonly owned = new Map<string, SlidingBucket>();
  /** The owned buckets keyed by a caller-minted sender id (they count against the sender-key cap). */
  private readonly senders = new Set<string>();
  /** Reservation id → the owned buckets it holds (an array: a call holds one to a few). */
  private readonly reservations = new Map<string, string[]>();
  /** Reservation id → its first commit's snapshots, oldest first (insertion order). */
  private readonly committed = new Map<
    string,
    { snapshots: readonly BucketSnapshot[]; atMs: number; buckets: readonly string[] }
  >();

  /** When remembered commits past COMMITTED_MEMORY_MS are next let go. */
  private nextForgetMs = 0;

  get size(): number {
    return this.owned.size;
  }

  owns(id: string): boolean {
    return this.owned.has(id);
  }

  ids(): string[] {
    return [...this.owned.keys()];
  }

  /** Distinct sender-keyed buckets of these checks that hold nothing live (they would become live). */
  freshSenders(checks: readonly BucketCheck[], nowMs: number): number {
    if (!checks.some((check) => check.senderScoped)) return 0;
    const fresh = new Set<string>();
    for (const check of checks) {
      const id = bucketId(check);
      if (check.senderScoped && this.owned.get(id)?.isEmpty(nowMs) !== false) fresh.add(id);
    }
    return fresh.size;
  }

  /** Owned sender-keyed buckets holding something live. */
  liveSenders(nowMs: number): number {
    let live = 0;
    for (const id of this.senders) if (this.owned.get(id)?.isEmpty(nowMs) === false) live += 1;
    return live;
  }

  /** True when every check's bucket is owned here, with the check's window. */
  covers(checks: readonly BucketCheck[]): boolean {
    return checks.every((check) => {
      const bucket = this.owned.get(bucketId(check));
      return bucket !== undefined && sameWindow(bucket.window, check.window);
    });
  }

  /** True when the reservation's holds are all on owned buckets (or it holds nothing here). */
  holdsOnlyHere(reservationId: string, checks: readonly BucketCheck[]): boolean {
    if (!this.covers(checks)) return false;
    for (const id of this.reservations.get(reservationId) ?? []) if (!this.owns(id)) return false;
    return true;
  }

  /** True when this process placed (or adopted) the reservation's holds, or committed it. */
  knows(reservationId: string): boolean {
    return this.reservations.has(reservationId) || this.committed.has(reservationId);
  }

  /** The owned buckets a reservation holds here; undefined when it holds nothing here. */
  heldBuckets(reservationId: string): string[] | undefined {
    const ids = this.reservations.get(reservationId);
    return ids === undefined ? undefined : [...ids];
  }

  /** Takes a claimed bucket into memory, with the holds its rows carried. */
  adopt(
    id: string,
    bucket: SlidingBucket,
    senderScoped: boolean,
    holds: ReadonlyMap<string, BucketHold>,
  ): void {
    this.owned.set(id, bucket);
    if (senderScoped) this.senders.add(id);
    for (const reservationId of holds.keys()) this.addHold(reservationId, id);
  }

  /** Lets a bucket go (handed back or taken over); returns it for its holds. */
  drop(id: string): SlidingBucket | undefined {
    const bucket = this.owned.get(id);
    this.owned.delete(id);
    this.senders.delete(id);
    return bucket;
  }

  bucket(id: string): SlidingBucket | undefined {
    return this.owned.get(id);
  }

  snapshot(check: BucketCheck, nowMs: number): BucketSnapshot {
    return checkSnapshot(check, this.owned.get(bucketId(check))?.state(nowMs), nowMs);
  }

  /**
   * All or nothing, in memory; the caller checked `covers`. A reservation that would make sender-keyed
   * buckets live needs `liveOthers` (the live ones other processes hold, from a claim) to judge the
   * sender-key cap, after the limits as on the shared path; without it the answer is undefined.
   */
  reserve(request: ReserveRequest, nowMs: number, liveOthers?: number): ReserveOutcome | undefined {
    const { reservationId, checks } = request;
    // A retried reservation replaces its own holds, so they do not count against it (as on the shared path).
    const snapshots = checks.map((check) =>
      checkSnapshot(check, this.owned.get(bucketId(check))?.state(nowMs, reservationId), nowMs),
    );
    if (checks.some((check, i) => check.onBreach === 'refuse' && snapshots[i]?.allowed === false))
      return { type: 'refused', snapshots };
    const fresh = this.freshSenders(checks, nowMs);
    if (fresh > 0) {
      if (liveOthers === undefined) return undefined;
      // Far from the cap even if every owned one were live, the exact count (a walk of them) is not needed.
      const room = request.maxSenderKeys - liveOthers - fresh;
      if (this.senders.size > room && this.liveSenders(nowMs) > room) return { type: 'capacity_exhausted' };
    }
    for (const [id, amount] of amountsByBucket(checks)) {
      this.owned.get(id)?.hold(reservationId, amount, request.expiresAtMs, nowMs);
      this.addHold(reservationId, id);
    }
    return { type: 'reserved', snapshots };
  }

  commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): LocalCommit {
    if (nowMs >= this.nextForgetMs) {
      // Once a second, not per commit: the walk skips the map's deleted entries from its start.
      this.nextForgetMs = nowMs + 1_000;
      this.forgetCommitsBefore(nowMs - COMMITTED_MEMORY_MS);
    }
    const previous = this.committed.get(reservationId);
    if (previous !== undefined) return { snapshots: previous.snapshots, charges: [], ledger: [] };
    // Brought up to date while this call's own holds still count as live (a session pot they kept
    // alive is not over), and the commit is its activity.
    for (const charge of charges) this.owned.get(bucketId(charge))?.touch(nowMs);
    this.release(reservationId);
    const rows: ChargeRow[] = [];
    const ledger: BucketLedgerRow[] = [];
    const buckets: string[] = [];
    const snapshots = charges.map((charge) => {
      const id = bucketId(charge);
      const bucket = this.owned.get(id) as SlidingBucket;
      bucket.charge(charge.amount, nowMs);
      buckets.push(id);
      if (charge.ledger !== undefined)
        ledger.push({ bucket: id, row: ledgerRow(charge, context, reservationId, nowMs) });
      if (!ledgerNamesPot(charge))
        rows.push({ b: id, r: reservationId, a: charge.amount.toString(), t: nowMs });
      return committedSnapshot(charge.limit, bucket.state(nowMs), nowMs);
    });
    this.committed.set(reservationId, { snapshots, atMs: nowMs, buckets });
    return { snapshots, charges: rows, ledger };
  }

  release(reservationId: string): void {
    for (const id of this.reservations.get(reservationId) ?? []) this.owned.get(id)?.release(reservationId);
    this.reservations.delete(reservationId);
  }

  /** The commit is durable (its record written): a retry now finds the record, not this memory. */
  forgetCommit(reservationId: string): void {
    this.committed.delete(reservationId);
  }

  /** Remembered commits on these buckets, as latches the shared path answers a retry from. */
  commitRows(buckets: ReadonlySet<string>): CommitRow[] {
    return [...this.committed]
      .filter(([, commit]) => commit.buckets.some((id) => buckets.has(id)))
      .map(([r, commit]) => ({
        r,
        s: commit.snapshots.map((snapshot) => ({
          used: snapshot.used.toString(),
          allowed: snapshot.allowed,
          resetAtMs: snapshot.resetAtMs,
        })),
        t: commit.atMs,
      }));
  }

  /** The live holds of a bucket, as rows for handing it back. */
  holdRows(id: string, nowMs: number): HoldRow[] {
    const bucket = this.owned.get(id);
    if (bucket === undefined) return [];
    return [...bucket.liveHolds(nowMs)].map(([r, hold]) => ({
      r,
      b: id,
      a: hold.amount.toString(),
      e: hold.expiresAtMs,
    }));
  }

  /**
   * One walk of the owned buckets: `idle` ones (nothing in the window, nothing held) can be let go;
   * `large` ones keep more than `maxEntries` charge entries in memory.
   */
  toHandBack(nowMs: number, maxEntries: number): { idle: string[]; large: string[] } {
    const idle: string[] = [];
    const large: string[] = [];
    for (const [id, bucket] of this.owned) {
      if (bucket.isEmpty(nowMs)) idle.push(id);
      else if (bucket.entries > maxEntries) large.push(id);
    }
    return { idle, large };
  }

  private addHold(reservationId: string, id: string): void {
    const ids = this.reservations.get(reservationId);
    if (ids === undefined) this.reservations.set(reservationId, [id]);
    else if (!ids.includes(id)) ids.push(id);
  }

  private forgetCommitsBefore(cutoffMs: number): void {
    for (const [id, commit] of this.committed) {
      if (commit.atMs >= cutoffMs) return;
      this.committed.delete(id);
    }
  }
}

/** Each bucket's total over the checks (a call may check one bucket twice); one check needs no map. */
function amountsByBucket(checks: readonly BucketCheck[]): Iterable<[string, bigint]> {
  const only = checks.length === 1 ? checks[0] : undefined;
  if (only !== undefined) return [[bucketId(only), only.amount]];
  const amounts = new Map<string, bigint>();
  for (const check of checks) {
    const id = bucketId(check);
    amounts.set(id, (amounts.get(id) ?? 0n) + check.amount);
  }
  return amounts;
}

function ledgerRow(
  charge: CommitCharge,
  context: CommitContext,
  reservationId: string,
  nowMs: number,
): LedgerRow {
  const ledger = charge.ledger as NonNullable<CommitCharge['ledger']>;
  return {
    budget_name: ledger.budgetName,
    epoch: charge.epoch,
    bucket_key: charge.key,
    kind: ledger.kind,
    amount: charge.amount.toString(),
    currency: ledger.currency,
    tool_name: context.toolName,
    origin: context.origin,
    audit_record_id: context.auditRecordId,
    timestamp_ms: nowMs,
    reservation_id: reservationId,
  };
}
