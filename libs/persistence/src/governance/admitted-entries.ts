/**
 * Pending entries this process admitted itself, kept so that /audit's first lookup, usually made to the
 * same process, needs no round trip. Entries waiting on an approval ticket are not kept (the ticket's
 * state is read from the database anyway).
 *
 * Why a copy may be trusted for ONE lookup: until some /audit touches it, an entry never changes in the
 * database; it can only disappear, when another process finalizes or expires it, or gain a commit latch,
 * when another process's /audit committed its holds. A copy is therefore handed out once (`take`): a
 * retry in this process reads the row, latch included. Against another process, the finalization
 * statement decides: it finalizes a row only if it is still there and carries no latch of a different
 * payload, so a lost race answers as a retry would (the service reads the winner's tombstone, or reports
 * the conflict), and nothing else was written: evidence and session state come only after winning the
 * finalization, and a reservation's charges are committed once whoever commits it.
 */
import { type PendingEvaluation } from '@helios/governance';

/** Beyond this many, the oldest copies are dropped (they are read from the database instead). */
const MAX_ENTRIES = 10_000;

export class AdmittedEntries {
  private readonly entries = new Map<string, PendingEvaluation>();

  constructor(private readonly maxEntries: number = MAX_ENTRIES) {}

  /** Keeps a copy of an entry just admitted, unless it waits on a ticket or was latched. */
  keep(entry: PendingEvaluation): void {
    if (entry.approvalTicketId !== undefined || entry.commit !== undefined) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(entry.evaluationId, entry);
  }

  /**
   * The copy, handed out once, unless past its TTL (then the database says whether it was expired
   * meanwhile).
   */
  take(evaluationId: string, nowMs: number): PendingEvaluation | undefined {
    const entry = this.entries.get(evaluationId);
    if (entry === undefined) return undefined;
    this.entries.delete(evaluationId);
    return nowMs < entry.expiresAtMs ? entry : undefined;
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
