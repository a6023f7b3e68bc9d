/**
 * Charges decided in memory and not yet written, by evaluation id: the finalization that records the
 * call writes them in its own statement (so a commit costs no statement of its own). While a statement
 * carrying a bucket's rows runs, the bucket is "in flight": handing it back waits for that, then takes
 * whatever is still unwritten and writes it itself, so every charge is written exactly once.
 */
import { type BucketLedgerRow, type ChargeRow, type LedgerRow } from './rows.js';

/** The key of a commit's rows that no evaluation carries: its reservation (no evaluation id has a NUL). */
const UNRECORDED = '\u0000unrecorded:';

export interface Deferred {
  readonly reservationId: string;
  readonly charges: readonly ChargeRow[];
  readonly ledger: readonly BucketLedgerRow[];
  /** Written with no record of the call (a commit without an evaluation): its commit stays remembered. */
  readonly unrecorded?: boolean;
}

interface TakenCharges {
  readonly entries: readonly (readonly [string, Deferred])[];
  readonly charges: readonly ChargeRow[];
  readonly ledger: readonly LedgerRow[];
}

/** What a finalization statement carries (`carry`); `settle` once it ran. */
export interface FinalizationCharges {
  readonly fenceKeys: readonly string[];
  /** Whose journal the charges go to (one row per statement). */
  readonly owner: string;
  readonly charges: readonly ChargeRow[];
  readonly ledger: readonly LedgerRow[];
  settle(written: boolean): void;
}

export interface TakenBuckets {
  readonly charges: readonly ChargeRow[];
  readonly ledger: readonly LedgerRow[];
  restore(): void;
}

export class DeferredCharges {
  private readonly waiting = new Map<string, Deferred>();
  /**
   * What the statements running now carry. A hand-back (rare) scans them for its buckets; a call then
   * costs no bookkeeping per bucket.
   */
  private readonly inFlight = new Set<TakenCharges>();
  private readonly drained = new Set<() => void>();
  /** Set once the owner was taken over: what fails from then on is given up (see `abandon`). */
  private onVoided: ((evaluationIds: readonly string[]) => void) | undefined;

  /**
   * `owner`: the process whose journal the charges go to; `onWritten`: a reservation's charges were
   * written (with its call's record).
   */
  constructor(
    private readonly owner: string,
    private readonly onWritten: (reservationId: string) => void = () => undefined,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  defer(evaluationId: string, deferred: Deferred): void {
    if (deferred.charges.length === 0 && deferred.ledger.length === 0) return;
    this.waiting.set(evaluationId, deferred);
  }

  /** The rows of these evaluations, in flight until `settle`. */
  private take(evaluationIds: readonly string[]): TakenCharges {
    const entries: [string, Deferred][] = [];
    const charges: ChargeRow[] = [];
    const ledger: LedgerRow[] = [];
    if (this.waiting.size > 0)
      for (const id of evaluationIds) {
        const deferred = this.waiting.get(id);
        if (deferred === undefined) continue;
        this.waiting.delete(id);
        entries.push([id, deferred]);
        for (const row of deferred.charges) charges.push(row);
        for (const entry of deferred.ledger) ledger.push(entry.row);
      }
    const taken = { entries, charges, ledger };
    if (entries.length > 0) this.inFlight.add(taken);
    return taken;
  }

  /** The rows of these evaluations for one statement fenced by `fenceKeys`; undefined when none. */
  carry(evaluationIds: readonly string[], fenceKeys: readonly string[]): FinalizationCharges | undefined {
    const taken = this.take(evaluationIds);
    if (taken.entries.length === 0) return undefined;
    const { charges, ledger } = taken;
    const settle = (written: boolean): void => this.settle(taken, written);
    return { fenceKeys, owner: this.owner, charges, ledger, settle };
  }

  /**
   * Rows of a commit no finalization carries (it has no evaluation), for a statement of their own: in
   * flight like a finalization's, so a hand-back waits for it, and writes them itself if it failed.
   */
  carryNow(
    deferred: Omit<Deferred, 'unrecorded'>,
    fenceKeys: readonly string[],
  ): FinalizationCharges | undefined {
    const key = `${UNRECORDED}${deferred.reservationId}`;
    this.defer(key, { ...deferred, unrecorded: true });
    return this.carry([key], fenceKeys);
  }

  /**
   * Written: forgotten (and, unless unrecorded, so is its commit: the record answers a retry). Not
   * written (the statement failed): waiting again, for the retry.
   */
  private settle(taken: TakenCharges, written: boolean): void {
    this.inFlight.delete(taken);
    for (const [id, deferred] of taken.entries) {
      if (!written) this.waiting.set(id, deferred);
      else if (deferred.unrecorded !== true) this.onWritten(deferred.reservationId);
    }
    if (!written && this.onVoided !== undefined) this.abandon(this.onVoided);
    if (this.drained.size > 0) for (const wake of [...this.drained]) wake();
  }

  /**
   * The owner was taken over: none of these rows can land any more (their statements are fenced off).
   * Every waiting row is dropped, and so is every row a running statement fails with from now on; the
   * evaluations they were for go to `onVoided` (a commit without an evaluation has none to name).
   */
  abandon(onVoided: (evaluationIds: readonly string[]) => void): void {
    this.onVoided = onVoided;
    const ids = [...this.waiting.keys()].filter((id) => !id.startsWith(UNRECORDED));
    this.waiting.clear();
    if (ids.length > 0) onVoided(ids);
  }

  /** True while a running statement carries rows of one of these buckets. */
  private carrying(buckets: ReadonlySet<string>): boolean {
    for (const taken of this.inFlight)
      for (const [, deferred] of taken.entries)
        if (
          deferred.charges.some((row) => buckets.has(row.b)) ||
          deferred.ledger.some((entry) => buckets.has(entry.bucket))
        )
          return true;
    return false;
  }

  /** Resolves once no statement carrying these buckets' rows is running. */
  private async idle(buckets: ReadonlySet<string>): Promise<void> {
    while (this.carrying(buckets)) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.drained.delete(wake);
          resolve();
        };
        this.drained.add(wake);
      });
    }
  }

  /**
   * Once no statement carrying these buckets' rows runs, removes and returns their unwritten rows (the
   * rest of each entry stays for its finalization) — checked and taken in one synchronous step, so no
   * finalization can take them in between. `restore` puts them back (the hand-back failed).
   */
  async takeBucketsWhenIdle(buckets: ReadonlySet<string>): Promise<TakenBuckets> {
    // Rechecked after each wait: a finalization may take some of them before this resumes.
    while (this.carrying(buckets)) await this.idle(buckets);
    const parts = new Map<string, Deferred>();
    for (const [id, deferred] of this.waiting) {
      const mine: Deferred = {
        ...deferred,
        charges: deferred.charges.filter((row) => buckets.has(row.b)),
        ledger: deferred.ledger.filter((entry) => buckets.has(entry.bucket)),
      };
      if (mine.charges.length === 0 && mine.ledger.length === 0) continue;
      parts.set(id, mine);
      const rest: Deferred = {
        ...deferred,
        charges: deferred.charges.filter((row) => !buckets.has(row.b)),
        ledger: deferred.ledger.filter((entry) => !buckets.has(entry.bucket)),
      };
      if (rest.charges.length === 0 && rest.ledger.length === 0) this.waiting.delete(id);
      else this.waiting.set(id, rest);
    }
    const all = [...parts.values()];
    return {
      charges: all.flatMap((part) => part.charges),
      ledger: all.flatMap((part) => part.ledger.map((entry) => entry.row)),
      restore: () => {
        for (const [id, part] of parts) {
          const now = this.waiting.get(id);
          this.waiting.set(id, {
            ...part,
            charges: [...(now?.charges ?? []), ...part.charges],
            ledger: [...(now?.ledger ?? []), ...part.ledger],
          });
        }
      },
    };
  }
}
