/**
 * The local limit authority of one API process: its current owner tenure (limit-owner.ts), and a new
 * one when the lease of the current one is lost (a database restart, a dropped connection). Until then
 * every limit is decided on the shared path, exactly, only slower.
 *
 * Rejoining: the lost tenure first retires (it hands every bucket back with its unwritten charges and
 * live holds, fenced by its key, retried until the database answers); then a new tenure starts under a
 * new owner name and claims buckets again as calls need them. If another process took the lost owner
 * over first, the charges that owner decided in memory and had not written can never land; the
 * finalizations of their evaluations fail until the call is committed again, so that each such /audit
 * fails and its retry commits the call anew (the takeover rebuilt its hold from the pending
 * evaluation) instead of recording the call with its charge lost. A call never retried is let go after
 * `VOIDED_FOR_MS` (its evaluation then expires as usual).
 */
import { type DataSource } from 'typeorm';
import { type LimitAuthorityOptions } from './authority-options.js';
import { FENCED_OFF } from './authority.sql.js';
import { type FinalizationCharges } from './deferred-charges.js';
import { LimitOwner } from './limit-owner.js';

export { type LimitAuthorityOptions } from './authority-options.js';

/** At most this long a voided evaluation's finalization fails (longer than any /audit takes). */
const VOIDED_FOR_MS = 60_000;
const MAX_REJOIN_DELAY_MS = 30_000;

/** A finalization of an evaluation whose in-memory charge was fenced off: its /audit must be retried. */
export class VoidedChargeError extends Error {
  /** The fence's own code: to a caller, a voided charge is a statement fenced off by a takeover. */
  readonly code = FENCED_OFF;

  constructor(readonly evaluationIds: readonly string[]) {
    super(
      `the limit charges of ${evaluationIds.join(', ')} were fenced off by a takeover; retry the call's audit`,
    );
  }
}

export class LimitAuthority {
  private closed = false;
  private rejoining: Promise<void> | undefined;
  /** Ends the rejoin's pause (close). */
  private wake: (() => void) | undefined;
  /** Evaluation id → until when its finalization fails (see the file comment). */
  private readonly voided = new Map<string, number>();

  /** Set by `start` before the authority is handed out. */
  private tenure!: LimitOwner;

  private constructor(
    private readonly dataSource: DataSource,
    private readonly options: LimitAuthorityOptions,
  ) {}

  static async start(dataSource: DataSource, options: LimitAuthorityOptions = {}): Promise<LimitAuthority> {
    const authority = new LimitAuthority(dataSource, options);
    const first = await authority.startTenure();
    authority.tenure = first;
    // The lease may have been lost before it was the authority's tenure (then `lost` ignored it).
    if (!first.isActive) authority.lost(first, new Error('the limit authority lease was lost at start'));
    return authority;
  }

  /** The tenure deciding now: the stores ask it, per call, so a new one takes over the next calls. */
  get current(): LimitOwner {
    return this.tenure;
  }

  get owner(): string {
    return this.tenure.owner;
  }

  get isActive(): boolean {
    return this.tenure.isActive;
  }

  get leaseBackendPid(): number | undefined {
    return this.tenure.leaseBackendPid;
  }

  /** Resolves once a lost lease was replaced (tests; at once when none was lost). */
  async rejoined(): Promise<void> {
    while (this.rejoining !== undefined) await this.rejoining;
  }

  /** Keys an admission must hold (see lease.ts). */
  fenceKeys(): string[] {
    return this.tenure.fenceKeys();
  }

  /** The charges decided in memory for these calls; throws when one of them had its charges voided. */
  chargesFor(evaluationIds: readonly string[]): FinalizationCharges | undefined {
    if (this.voided.size > 0) {
      const now = Date.now();
      for (const [id, until] of this.voided) if (until <= now) this.voided.delete(id);
      const voided = evaluationIds.filter((id) => this.voided.has(id));
      if (voided.length > 0) throw new VoidedChargeError(voided);
    }
    return this.tenure.chargesFor(evaluationIds);
  }

  /** The call was committed again (its retried /audit): its finalization may carry that commit. */
  recommitted(evaluationId: string): void {
    this.voided.delete(evaluationId);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.rejoining;
    await this.tenure.close();
  }

  private lost(tenure: LimitOwner, error: unknown): void {
    this.options.log?.error(
      'governance: the limit authority lost its connection; limits are decided on the shared path until it rejoins',
      error,
    );
    if (tenure !== this.tenure || this.rejoining !== undefined) return;
    this.rejoining = this.rejoin(tenure).finally(() => {
      this.rejoining = undefined;
    });
  }

  /** Retires the lost tenure, then starts the next one; retried with a growing pause until it works. */
  private async rejoin(first: LimitOwner): Promise<void> {
    let lost = first;
    let delayMs = this.options.rejoinDelayMs ?? 250;
    let retired = false;
    while (!this.closed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.closed) return;
      try {
        if (!retired) await lost.retire((ids) => this.void(ids));
        retired = true;
        const next = await this.startTenure();
        if (this.closed) return await next.close();
        this.tenure = next;
        if (next.isActive) {
          this.options.log?.warn(`governance: the limit authority rejoined as owner ${next.owner}`);
          return;
        }
        // Lost again before it was current: retired like the first.
        [lost, retired] = [next, false];
      } catch (error) {
        this.options.log?.warn(
          `governance: the limit authority could not rejoin yet: ${error instanceof Error ? error.message : String(error)}`,
        );
        delayMs = Math.min(delayMs * 2, MAX_REJOIN_DELAY_MS);
      }
    }
  }

  /** A new tenure with the buckets of dead owners taken over; closed again when that fails. */
  private async startTenure(): Promise<LimitOwner> {
    const tenure = await LimitOwner.start(this.dataSource, this.options, (lost, error) =>
      this.lost(lost, error),
    );
    try {
      await tenure.recoverDeadOwners();
    } catch (error) {
      await tenure.close().catch(() => undefined);
      throw error;
    }
    return tenure;
  }

  private void(evaluationIds: readonly string[]): void {
    const until = Date.now() + VOIDED_FOR_MS;
    for (const id of evaluationIds) this.voided.set(id, until);
  }
}
