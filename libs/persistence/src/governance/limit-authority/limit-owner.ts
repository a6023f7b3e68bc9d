/**
 * One owner's tenure of the local limit authority (limit-authority.ts holds the process's current one):
 * the buckets this process uses alone are decided in its memory, with no statement of their own; a
 * bucket several processes use stays on the shared path (`helios_limit_apply`). Claim: the first
 * reservation on a bucket claims it (`helios_limit_claim`, batched) and loads its live charges and
 * holds; then its reservations, commits and releases are decided in memory (local-limits.ts),
 * atomically, in arrival order. Durability: a hold is its pending evaluation (written before /evaluate
 * answers); a commit's charge and ledger rows are written by the finalization that records the call
 * (deferred-charges.ts), the charges of a whole batch as one row of this owner's charge journal.
 * Contention: a process that needs a bucket another owns asks (NOTIFY); the owner hands it back
 * (`helios_limit_demote`) and it stays shared for `cooldownMs`. Death: an owner's advisory key is held
 * by its lease (lease.ts); whoever can seize it knows the owner is gone, with nothing of it in flight,
 * and rebuilds its buckets from their rows and the pending evaluations (takeover.ts); a lost lease ends
 * the tenure (`retire`). Housekeeping: charge rows that left the window are deleted, the journal
 * compacted into runs, empty buckets handed back, dead owners' buckets taken over.
 * docs/governance/durability.md ("Local limit authority") has the whole design.
 */
import { randomBytes } from 'node:crypto';
import {
  bucketId,
  SlidingBucket,
  type BucketCheck,
  type BucketSnapshot,
  type CommitCharge,
  type CommitContext,
  type ReserveOutcome,
  type ReserveRequest,
} from '@helios/governance';
import { type DataSource } from 'typeorm';
import { runOnPoolRetrying, sqlState } from '../sql.js';
import {
  claimedState,
  DEMOTE_FENCED,
  demoteParams,
  FENCED_OFF,
  inSlices,
  ownerKey,
  type ClaimRow,
} from './authority.sql.js';
import { distinctSorted } from '../limit-buckets.sql.js';
import { Claims } from './claims.js';
import { DeferredCharges, type FinalizationCharges } from './deferred-charges.js';
import { Lease } from './lease.js';
import { Evictions } from './evictions.js';
import { LocalLimits } from './local-limits.js';
import { RowRetirement } from './row-retirement.js';
import { type LimitAuthorityOptions } from './authority-options.js';

export type Route = 'local' | 'shared';

/** Charge entries (milliseconds with charges) an owned bucket may keep in memory (~16 bytes each). */
const MAX_ENTRIES = 1_000_000;
/** A bucket over that goes back to the shared path (O(1) per check too) for this long. */
const LARGE_HOLD_OFF_MS = 10 * 60_000;
/** `since` of a bucket with no counting charge: every row of it goes (PostgreSQL's largest bigint). */
const NOTHING_COUNTS = '9223372036854775807';

export class LimitOwner {
  readonly owner = randomBytes(8).toString('hex');
  readonly local = new LocalLimits();
  /** A commit whose charges were written is forgotten here: a retry finds its record. */
  readonly deferred = new DeferredCharges(this.owner, (reservationId) =>
    this.local.forgetCommit(reservationId),
  );
  private readonly key = ownerKey(this.owner);
  private lease: Lease | undefined;
  private active = false;
  private readonly demoting = new Map<string, Promise<void>>();
  /** Bucket → the instant before which it is not claimed again (handed back, or owned elsewhere). */
  private readonly sharedUntil = new Map<string, number>();
  private readonly rows: RowRetirement;
  private readonly claims: Claims;
  private readonly evictions: Evictions;
  private maintenance: Promise<void> = Promise.resolve();
  private sweep: NodeJS.Timeout | undefined;
  private nowMs = 0;
  private recoveredAt = Date.now();
  private readonly cooldownMs: number;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly options: LimitAuthorityOptions,
    private readonly onLost: (owner: LimitOwner, error: unknown) => void,
  ) {
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.claims = new Claims(dataSource, this.owner, this.cooldownMs);
    this.evictions = new Evictions(dataSource, this.owner, () => this.lease);
    this.rows = new RowRetirement(dataSource, this.owner, this.key);
  }

  /** `onLost`: the lease is gone, this tenure decides nothing more (see `retire`). The caller recovers dead owners. */
  static async start(
    dataSource: DataSource,
    options: LimitAuthorityOptions,
    onLost: (owner: LimitOwner, error: unknown) => void,
  ): Promise<LimitOwner> {
    const authority = new LimitOwner(dataSource, options, onLost);
    authority.lease = await Lease.open(dataSource, authority.owner, {
      onRequest: (ids) => void authority.handBack(ids, 0).catch((error: unknown) => authority.fail(error)),
      onLost: (error) => authority.lose(error),
    });
    authority.active = true;
    authority.sweep = setInterval(
      () => void authority.housekeep().catch((error: unknown) => authority.fail(error)),
      options.sweepIntervalMs ?? 1_000,
    );
    authority.sweep.unref();
    return authority;
  }

  get isActive(): boolean {
    return this.active;
  }

  /** The server process holding this owner's lease (diagnostics, and tests that kill it). */
  get leaseBackendPid(): number | undefined {
    return this.lease?.backendPid;
  }

  /** Keys a statement writing what this process decided in memory must hold (none once it stopped). */
  fenceKeys(): string[] {
    return this.active ? [this.key] : [];
  }

  /** The keys for a finalization that carries deferred charges: always this owner's (see lease.ts). */
  chargeFenceKeys(): string[] {
    return [this.key];
  }

  /** The charges decided here for these calls, for the finalization that records them (none: undefined). */
  chargesFor(evaluationIds: readonly string[]): FinalizationCharges | undefined {
    return this.deferred.carry(evaluationIds, this.chargeFenceKeys());
  }

  /**
   * Where a reservation on these checks is decided; claims what it can first. `liveOthers` comes with
   * `local` when the reservation would make sender-keyed buckets live (the count the cap needs).
   */
  async route(checks: readonly BucketCheck[], nowMs: number): Promise<{ route: Route; liveOthers?: number }> {
    this.nowMs = Math.max(this.nowMs, nowMs);
    const ids = [...new Set(checks.map(bucketId))];
    for (let round = 0; round < 3 && this.active; round += 1) {
      await this.settled(ids);
      const covered = this.local.covers(checks);
      if (covered && this.local.freshSenders(checks, nowMs) === 0) return { route: 'local' };
      if (ids.some((id) => (this.sharedUntil.get(id) ?? 0) > nowMs)) {
        await this.handBack(ids.filter((id) => this.local.owns(id)));
        return { route: 'shared' };
      }
      // A bucket owned here under another window (a reconfigured rule) goes back and is claimed anew.
      const stale = ids.filter(
        (id) => this.local.owns(id) && !this.local.covers(checks.filter((check) => bucketId(check) === id)),
      );
      if (stale.length > 0) await this.handBack(stale);
      // Sender-keyed ones are asked for even when owned: the claim brings the others' live count.
      const wanted = distinctSorted(checks).filter(
        (check) => check.senderScoped || !this.local.owns(bucketId(check)),
      );
      const rows = await this.claims.submit(wanted, nowMs);
      this.adopt(rows, wanted, nowMs);
      const live = rows.find((row) => row.c_live_others !== null)?.c_live_others;
      if (this.local.covers(checks)) return { route: 'local', liveOthers: Number(live ?? 0) };
    }
    return { route: 'shared' };
  }

  /** Decided in memory when every bucket is owned here and none is being handed back; else undefined. */
  tryReserve(request: ReserveRequest, nowMs: number, liveOthers?: number): ReserveOutcome | undefined {
    if (!this.active || !this.local.covers(request.checks) || this.anyDemoting(request.checks))
      return undefined;
    return this.local.reserve(request, nowMs, liveOthers);
  }

  /**
   * Whether a commit of this reservation can be decided here; hands back what blocks it. `unknown`: its
   * buckets are owned here but this process never saw the reservation (it may have been committed on
   * the shared path): the caller reads its commit latch first.
   */
  async routeSettlement(
    reservationId: string,
    checks: readonly BucketCheck[],
  ): Promise<'local' | 'unknown' | 'shared'> {
    const ids = [...new Set(checks.map(bucketId))];
    await this.settled(ids);
    if (this.active && this.local.holdsOnlyHere(reservationId, checks))
      return this.local.knows(reservationId) ? 'local' : 'unknown';
    await this.handBack(ids.filter((id) => this.local.owns(id)));
    return 'shared';
  }

  /**
   * A commit decided in memory: its rows wait for the finalization of `context.latch.evaluationId`, or
   * come back in `write` for the caller to write at once (and `settle`) when no evaluation carries them.
   * A reservation this process never saw is committed here only once its latch was read (`latchRead`).
   */
  tryCommit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
    latchRead = false,
  ): { snapshots: readonly BucketSnapshot[]; write?: FinalizationCharges } | undefined {
    if (!this.active || !this.local.holdsOnlyHere(reservationId, charges) || this.anyDemoting(charges))
      return undefined;
    if (!latchRead && !this.local.knows(reservationId)) return undefined;
    // Charged at the latest instant seen: a clock stepped back never puts a charge before an earlier one.
    this.nowMs = Math.max(this.nowMs, nowMs);
    const at = this.nowMs;
    const commit = this.local.commit(reservationId, charges, context, at);
    for (const charge of commit.charges) this.rows.noteRow(charge.b, at);
    const evaluationId = context.latch?.evaluationId;
    if (evaluationId !== undefined) {
      this.deferred.defer(evaluationId, { reservationId, charges: commit.charges, ledger: commit.ledger });
      return { snapshots: commit.snapshots };
    }
    const rows = { reservationId, charges: commit.charges, ledger: commit.ledger };
    return { snapshots: commit.snapshots, write: this.deferred.carryNow(rows, this.chargeFenceKeys()) };
  }

  /** True when the release was decided here; otherwise the shared path must release it. */
  async release(reservationId: string): Promise<boolean> {
    const ids = this.local.heldBuckets(reservationId);
    if (ids === undefined) return false;
    await this.settled(ids);
    if (this.active && ids.every((id) => this.local.owns(id) && !this.demoting.has(id))) {
      this.local.release(reservationId);
      return true;
    }
    await this.handBack(ids.filter((id) => this.local.owns(id)));
    this.local.release(reservationId);
    return false;
  }

  /**
   * A shared-path statement met buckets owned by processes (HL001): ours go back; a dead owner's are
   * taken over; a live owner is asked. The caller retries after a pause.
   */
  async reclaim(owned: readonly (readonly [owner: string, bucket: string])[]): Promise<void> {
    const byOwner = new Map<string, string[]>();
    for (const [owner, bucket] of owned) byOwner.set(owner, [...(byOwner.get(owner) ?? []), bucket]);
    for (const [owner, buckets] of byOwner) {
      if (owner === this.owner) await this.handBack(buckets);
      else await this.evictions.evict(owner, buckets, this.now());
    }
  }

  /** Takes over the buckets of every owner that is gone (evictions.ts), without waiting for a call to need them. */
  async recoverDeadOwners(): Promise<void> {
    await this.evictions.recoverDeadOwners(this.now());
  }

  /** Hands every bucket back and closes the lease (graceful shutdown). */
  async close(): Promise<void> {
    if (this.sweep !== undefined) clearInterval(this.sweep);
    if (this.active) await this.handBack(this.local.ids());
    this.active = false;
    this.lease?.close();
  }

  /**
   * Ends a tenure whose lease was lost: every bucket goes back as at shutdown (throws while the database
   * is unreachable). If another process took this owner over first, its unwritten charges can never
   * land: they are given up, and their evaluations passed to `onVoided` (see limit-authority.ts).
   */
  async retire(onVoided: (evaluationIds: readonly string[]) => void): Promise<void> {
    try {
      await this.handBack(this.local.ids());
    } catch (error) {
      if (sqlState(error) !== FENCED_OFF) throw error;
      for (const id of this.local.ids()) this.local.drop(id);
      this.deferred.abandon(onVoided);
    }
  }

  /**
   * Hands buckets back to the shared path (see the file comment); concurrent calls share the work.
   * `holdOffMs`: none, or the claim cooldown starts that long from now (0: another process needs it).
   */
  async handBack(ids: readonly string[], holdOffMs?: number): Promise<void> {
    const mine = ids.filter((id) => this.local.owns(id) && !this.demoting.has(id));
    const running = ids.flatMap((id) => this.demoting.get(id) ?? []);
    if (mine.length > 0) {
      const done = this.exclusively(() => inSlices(mine, (slice) => this.demote(slice, holdOffMs)));
      for (const id of mine) this.demoting.set(id, done);
      void done.finally(() => mine.forEach((id) => this.demoting.delete(id))).catch(() => undefined);
      running.push(done);
    }
    await Promise.all(running);
  }

  private async demote(ids: readonly string[], holdOffMs: number | undefined): Promise<void> {
    const owned = ids.filter((id) => this.local.owns(id));
    if (owned.length === 0) return;
    const taken = await this.deferred.takeBucketsWhenIdle(new Set(owned));
    const nowMs = this.nowMs;
    const holds = owned.flatMap((id) => this.local.holdRows(id, nowMs));
    const last = owned.map((id) => this.local.bucket(id)?.lastActivity ?? nowMs);
    // Rows before the oldest charge memory still counts are gone (retired, or an idle session pot's).
    const since = owned.map((id) => this.local.bucket(id)?.oldestCounting(nowMs) ?? NOTHING_COUNTS);
    const commits = this.local.commitRows(new Set(owned));
    const writes = { holds, charges: taken.charges, ledger: taken.ledger, commits };
    try {
      // Fenced: once another process took this owner over, nothing it decided may land.
      const demotedAt = holdOffMs === undefined ? null : nowMs + holdOffMs;
      await runOnPoolRetrying(this.dataSource, DEMOTE_FENCED, [
        ...demoteParams(this.owner, owned, last, since, writes, nowMs, demotedAt),
        this.chargeFenceKeys(),
      ]);
    } catch (error) {
      taken.restore();
      throw error;
    }
    // The cooldown is the row's (`demoted_at_ms`): the next claim finds it and keeps the bucket shared.
    for (const id of owned) {
      this.local.drop(id);
      this.rows.forget(id);
    }
  }

  /** Claimed rows into memory; contended buckets stay shared for the cooldown. */
  private adopt(rows: readonly ClaimRow[], checks: readonly BucketCheck[], nowMs: number): void {
    const byId = new Map(checks.map((check) => [bucketId(check), check]));
    for (const row of rows) {
      const check = byId.get(row.c_bucket);
      if (check === undefined) continue;
      if (row.c_outcome === 'cooling') this.sharedUntil.set(row.c_bucket, nowMs + this.cooldownMs);
      else if (row.c_outcome === 'owned') {
        this.sharedUntil.set(row.c_bucket, nowMs + this.cooldownMs);
        void this.evictions
          .evict(row.c_owner ?? '', [row.c_bucket], this.now())
          .catch((error: unknown) => this.fail(error));
      } else if (!this.local.owns(row.c_bucket)) {
        const state = claimedState(row, check);
        const bucket = SlidingBucket.restore(state.window, state.lastActivityMs, state.charges, state.holds);
        this.local.adopt(row.c_bucket, bucket, check.senderScoped, state.holds);
        if (state.charges.length > 0) this.rows.noteRow(row.c_bucket, state.charges[0]?.atMs ?? nowMs);
      }
    }
  }

  /** Deletes the rows that left the window and hands back buckets with nothing left. */
  private async housekeep(): Promise<void> {
    if (!this.active) return;
    const recoverEvery = this.options.recoveryIntervalMs ?? 10_000;
    if (Date.now() - this.recoveredAt >= recoverEvery) {
      this.recoveredAt = Date.now();
      await this.recoverDeadOwners();
    }
    if (this.nowMs === 0) return;
    const nowMs = this.nowMs;
    await this.exclusively(() => this.rows.retire(this.local, (id) => this.demoting.has(id), nowMs));
    await this.exclusively(() => this.rows.compactJournalIfDue(this.options.journalCompactionMs ?? 30_000));
    for (const [id, until] of this.sharedUntil) if (until <= nowMs) this.sharedUntil.delete(id);
    // Empty buckets go back; a window holding more charges than memory should is decided on the
    // shared path for a while.
    const { idle, large } = this.local.toHandBack(nowMs, this.options.maxChargeEntries ?? MAX_ENTRIES);
    if (idle.length > 0) await this.handBack(idle);
    if (large.length > 0) await this.handBack(large, LARGE_HOLD_OFF_MS);
  }

  /** The latest instant a call brought, else the clock's. */
  private now(): number {
    return this.nowMs || (this.options.clock?.now() ?? Date.now());
  }

  /** Hand-backs and the sweep run one at a time (a sweep must not delete rows a hand-back summed). */
  private exclusively(work: () => Promise<void>): Promise<void> {
    const run = this.maintenance.then(work, work);
    this.maintenance = run.catch(() => undefined);
    return run;
  }

  private async settled(ids: readonly string[]): Promise<void> {
    for (;;) {
      const pending = ids.flatMap((id) => this.demoting.get(id) ?? []);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  private anyDemoting(checks: readonly BucketCheck[]): boolean {
    return this.demoting.size > 0 && checks.some((check) => this.demoting.has(bucketId(check)));
  }

  /** The lease is gone: this tenure may no longer decide anything in memory (the caller retires it). */
  private lose(error: unknown): void {
    if (!this.active) return;
    this.active = false;
    if (this.sweep !== undefined) clearInterval(this.sweep);
    this.onLost(this, error);
  }

  private fail(error: unknown): void {
    this.options.log?.warn(
      `governance: limit authority: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
