/**
 * The charge rows of owned sliding buckets that left the window: memory retires a charge by itself;
 * its row is deleted here (the shared path deletes while it decides). Each bucket's oldest row that may
 * remain is tracked, so only buckets with something due cost a statement. Also the owner's charge
 * journal's compaction into runs (migration OwnerChargeJournal), another write of the owner's rows.
 */
import { type DataSource } from 'typeorm';
import { runOnPool } from '../sql.js';
import { COMPACT_JOURNAL, RETIRE } from './authority.sql.js';
import { type LocalLimits } from './local-limits.js';

export class RowRetirement {
  /** Bucket → the oldest charge its rows may still hold. */
  private readonly oldest = new Map<string, number>();
  private compactedAt = Date.now();

  constructor(
    private readonly dataSource: DataSource,
    private readonly owner: string,
    private readonly key: string,
  ) {}

  /** A row at `atMs` was (or will be) written for this bucket. */
  noteRow(bucket: string, atMs: number): void {
    const known = this.oldest.get(bucket);
    if (known === undefined || atMs < known) this.oldest.set(bucket, atMs);
  }

  /**
   * The owner's charge journal (a row per finalization batch) into runs, a row per bucket, which
   * `retire` deletes once they left the window; fenced, at most once per `intervalMs`. A longer
   * interval writes fewer rows for buckets charged now and then (per sender, per session); a shorter
   * one bounds what a hand-back or a takeover reads.
   */
  async compactJournalIfDue(intervalMs: number): Promise<void> {
    if (Date.now() - this.compactedAt < intervalMs) return;
    this.compactedAt = Date.now();
    await runOnPool(this.dataSource, COMPACT_JOURNAL, [this.owner, [this.key]]);
  }

  forget(bucket: string): void {
    this.oldest.delete(bucket);
  }

  /** Deletes what left each due bucket's window (fenced; only buckets still owned by this owner). */
  async retire(local: LocalLimits, skip: (bucket: string) => boolean, nowMs: number): Promise<void> {
    const due: [string, number][] = [];
    for (const [id, oldest] of this.oldest) {
      const bucket = local.bucket(id);
      if (bucket?.window.type !== 'sliding' || skip(id)) continue;
      const cut = nowMs - bucket.window.ms;
      if (oldest <= cut) due.push([id, cut]);
    }
    if (due.length === 0) return;
    await runOnPool(this.dataSource, RETIRE, [
      due.map(([id]) => id),
      due.map(([, cut]) => cut),
      [this.key],
      this.owner,
    ]);
    for (const [id] of due) {
      const oldest = local.bucket(id)?.oldestCounting(nowMs);
      if (oldest === null || oldest === undefined) this.oldest.delete(id);
      else this.oldest.set(id, oldest);
    }
  }
}
