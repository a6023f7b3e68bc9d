/** In-memory pending evaluations and tombstones (tests, single-process embedding). */
import {
  type BacklogCaps,
  type CommitLatch,
  type EvaluationLookup,
  type PendingEvaluation,
  type PendingEvaluationStore,
  type Tombstone,
} from '../pending-evaluation-store.js';

export class MemoryPendingEvaluationStore implements PendingEvaluationStore {
  private readonly pending = new Map<string, PendingEvaluation>();
  private readonly tombstones = new Map<string, Tombstone>();
  private bytes = 0;

  hasRoom(bytes: number, caps: BacklogCaps): boolean {
    return this.pending.size < caps.maxCount && this.bytes + bytes <= caps.maxBytes;
  }

  admit(entry: PendingEvaluation, caps: BacklogCaps): boolean {
    if (this.pending.size >= caps.maxCount || this.bytes + entry.bytes > caps.maxBytes) return false;
    this.pending.set(entry.evaluationId, entry);
    this.bytes += entry.bytes;
    return true;
  }

  get(evaluationId: string): Promise<PendingEvaluation | undefined> {
    return Promise.resolve(this.pending.get(evaluationId));
  }

  lookup(evaluationId: string, nowMs: number): Promise<EvaluationLookup> {
    const tombstone = this.tombstones.get(evaluationId);
    return Promise.resolve({
      tombstone: tombstone !== undefined && tombstone.expiresAtMs > nowMs ? tombstone : undefined,
      pending: this.pending.get(evaluationId),
    });
  }

  latchCommit(evaluationId: string, latch: CommitLatch): Promise<void> {
    const entry = this.pending.get(evaluationId);
    if (entry) this.pending.set(evaluationId, { ...entry, commit: latch });
    return Promise.resolve();
  }

  finalize(tombstone: Tombstone): Promise<boolean> {
    const entry = this.pending.get(tombstone.evaluationId);
    if (entry === undefined) return Promise.resolve(false);
    this.pending.delete(tombstone.evaluationId);
    this.bytes -= entry.bytes;
    this.tombstones.set(tombstone.evaluationId, tombstone);
    return Promise.resolve(true);
  }

  remember(tombstone: Tombstone): Promise<void> {
    this.tombstones.set(tombstone.evaluationId, tombstone);
    return Promise.resolve();
  }

  tombstone(evaluationId: string, nowMs: number): Promise<Tombstone | undefined> {
    const tombstone = this.tombstones.get(evaluationId);
    return Promise.resolve(tombstone !== undefined && tombstone.expiresAtMs > nowMs ? tombstone : undefined);
  }

  due(nowMs: number, limit: number): Promise<readonly PendingEvaluation[]> {
    const out: PendingEvaluation[] = [];
    // Map iteration is insertion order, i.e. oldest first.
    for (const entry of this.pending.values()) {
      if (out.length >= limit) break;
      if (entry.expiresAtMs <= nowMs) out.push(entry);
    }
    return Promise.resolve(out);
  }

  pruneTombstones(nowMs: number): Promise<void> {
    for (const [id, tombstone] of this.tombstones) {
      if (tombstone.expiresAtMs <= nowMs) this.tombstones.delete(id);
    }
    return Promise.resolve();
  }

  /** Count and bytes currently pending (tests, health). */
  backlog(): { readonly count: number; readonly bytes: number } {
    return { count: this.pending.size, bytes: this.bytes };
  }
}
