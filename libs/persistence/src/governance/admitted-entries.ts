/**
 * Pending entries this process admitted itself and that have nothing to commit (no holds, no ticket,
 * no latch), kept so that /audit's lookup, usually made to the same process, needs no round trip.
 *
 * Why a copy may be trusted: such an entry never changes in the database; it can only disappear, when
 * another process finalizes or expires it. Then this process's finalization statement finds the row
 * gone and the audit answers as a retry would (the service reads the winner's tombstone), and nothing
 * else was written: the service writes evidence and session state only after winning the finalization.
 */
import { type PendingEvaluation } from '@helios/governance';

/** Beyond this many, the oldest copies are dropped (they are read from the database instead). */
const MAX_ENTRIES = 10_000;

export class AdmittedEntries {
  private readonly entries = new Map<string, PendingEvaluation>();

  constructor(private readonly maxEntries: number = MAX_ENTRIES) {}

  /** Keeps a copy of an entry just admitted, if it has nothing to commit. */
  keep(entry: PendingEvaluation): void {
    if (entry.reservationId !== undefined || entry.approvalTicketId !== undefined) return;
    if (entry.commit !== undefined) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(entry.evaluationId, entry);
  }

  /** The copy, unless past its TTL (then the database says whether it was expired meanwhile). */
  find(evaluationId: string, nowMs: number): PendingEvaluation | undefined {
    const entry = this.entries.get(evaluationId);
    return entry !== undefined && nowMs < entry.expiresAtMs ? entry : undefined;
  }

  forget(evaluationId: string): void {
    this.entries.delete(evaluationId);
  }

  /** Drops copies past their TTL (the sweep expires their rows). */
  prune(nowMs: number): void {
    for (const [id, entry] of this.entries) if (entry.expiresAtMs <= nowMs) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
