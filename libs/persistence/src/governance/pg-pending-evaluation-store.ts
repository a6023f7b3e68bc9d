/**
 * Pending evaluations and tombstones on PostgreSQL: an entry is a row written before /evaluate answers,
 * so after a crash every evaluation id ever returned is either finalized (tombstone) or found by
 * `due()` and expired. Each operation is atomic in ONE statement (data-modifying CTEs): admission tests
 * the caps and bumps the admitted total in the statement that inserts the entry; finalization deletes
 * the entry, adds it to the freed total, writes the tombstone and inserts the audit record together.
 * The hot operations are group-committed: concurrent callers' operations of one kind run as one
 * multi-row statement (pending-batches.sql.ts), and each caller is answered only once that statement
 * has committed.
 */
import {
  type BacklogCaps,
  type CommitLatch,
  type EvaluationLookup,
  type PendingEvaluation,
  type PendingEvaluationStore,
  type Tombstone,
} from '@helios/governance';
import { type DataSource } from 'typeorm';
import { auditRow } from './audit-record-row.js';
import { AdmittedEntries } from './admitted-entries.js';
import { BacklogView } from './backlog-view.js';
import { type LimitAuthority } from './limit-authority/limit-authority.js';
import { decodePending, encodePending, type EncodedPending } from './pending-codec.js';
import { recoverAuditRecords } from './recover-audit-records.js';
import {
  ADMIT_BATCH,
  BACKLOG,
  FINALIZE_BATCH,
  LATCH_BATCH,
  LOOKUP_BATCH,
  REMEMBER_BATCH,
} from './pending-batches.sql.js';
import { runOnPool, runPooled, type NamedStatement } from './sql.js';
import { StatementBatcher } from './statement-batcher.js';

interface PendingRow {
  readonly payload: EncodedPending;
  readonly commit_latch: CommitLatch | null;
}

interface TombstoneRow {
  readonly evaluation_id: string;
  readonly audit_record_id: string;
  readonly finalized_by: Tombstone['finalizedBy'];
  readonly payload_hash: string | null;
  readonly expires_at_ms: string;
}

/** Callers per statement; bounds the parameter arrays. */
const MAX_BATCH = 256;
/** One batch of a kind at a time: calls arriving meanwhile make the next batch larger (fewer statements). */
const MAX_IN_FLIGHT = 1;

interface Admission {
  readonly entry: PendingEvaluation;
  readonly caps: BacklogCaps;
}

interface RoomQuery {
  readonly bytes: number;
  readonly caps: BacklogCaps;
}

interface LookupQuery {
  readonly evaluationId: string;
  readonly nowMs: number;
}

type LookupRow = TombstoneRow & PendingRow & { readonly kind: 't' | 'p' };

export class PgPendingEvaluationStore implements PendingEvaluationStore {
  /** finalize/remember insert the record into `audit_records` in their own statement. */
  readonly writesRecords = true;

  // Group commit: the hot statements of concurrent requests share one round trip (statement-batcher.ts).
  private readonly rooms = new StatementBatcher((queries: readonly RoomQuery[]) => this.roomFor(queries), {
    maxBatch: MAX_BATCH,
    maxInFlight: MAX_IN_FLIGHT,
  });
  private readonly admissions = new StatementBatcher(
    (items: readonly Admission[]) => this.admitBatch(items),
    { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT, keyOf: (item) => item.entry.evaluationId },
  );
  private readonly lookups = new StatementBatcher(
    (queries: readonly LookupQuery[]) => this.lookupBatch(queries),
    { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT },
  );
  private readonly backlogView = new BacklogView();
  private readonly admitted = new AdmittedEntries();
  private readonly finalizations = new StatementBatcher(
    (tombstones: readonly Tombstone[]) => this.writeTombstones(FINALIZE_BATCH, tombstones),
    { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT, keyOf: (tombstone) => tombstone.evaluationId },
  );
  private readonly latches = new StatementBatcher(
    async (items: readonly { evaluationId: string; latch: CommitLatch }[]) => {
      await runOnPool(this.dataSource, LATCH_BATCH, [
        items.map((item) => item.evaluationId),
        items.map((item) => JSON.stringify(item.latch)),
      ]);
      return items.map(() => undefined);
    },
    { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT, keyOf: (item) => item.evaluationId },
  );
  private readonly rememberings = new StatementBatcher(
    (tombstones: readonly Tombstone[]) => this.writeTombstones(REMEMBER_BATCH, tombstones),
    { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT, keyOf: (tombstone) => tombstone.evaluationId },
  );

  private readonly authority: LimitAuthority | undefined;

  /** `authority`: the limit store's; finalizations then write the charges it decided in memory. */
  constructor(
    private readonly dataSource: DataSource,
    options: { readonly authority?: LimitAuthority } = {},
  ) {
    this.authority = options.authority;
  }

  hasRoom(bytes: number, caps: BacklogCaps): boolean | Promise<boolean> {
    // Far from the caps a recent view answers without a round trip (backlog-view.ts).
    if (this.backlogView.clearlyHasRoom(bytes, caps)) return true;
    return this.rooms.submit({ bytes, caps });
  }

  /** The evaluation id is answered only after the statement that inserted its row has committed. */
  async admit(entry: PendingEvaluation, caps: BacklogCaps): Promise<boolean> {
    const admitted = await this.admissions.submit({ entry, caps });
    if (admitted) this.admitted.keep(entry);
    return admitted;
  }

  async get(evaluationId: string): Promise<PendingEvaluation | undefined> {
    return (await this.lookups.submit({ evaluationId, nowMs: Number.POSITIVE_INFINITY })).pending;
  }

  lookup(evaluationId: string, nowMs: number): Promise<EvaluationLookup> {
    // The first lookup of an entry admitted here is answered from memory (admitted-entries.ts).
    const local = this.admitted.take(evaluationId, nowMs);
    if (local !== undefined) return Promise.resolve({ tombstone: undefined, pending: local });
    return this.lookups.submit({ evaluationId, nowMs });
  }

  async latchCommit(evaluationId: string, latch: CommitLatch): Promise<void> {
    this.admitted.forget(evaluationId);
    await this.latches.submit({ evaluationId, latch });
  }

  /** Two finalizers of one id (two processes): the second finds the row gone and gets false. */
  finalize(tombstone: Tombstone): Promise<boolean> {
    this.admitted.forget(tombstone.evaluationId);
    return this.finalizations.submit(tombstone);
  }

  async remember(tombstone: Tombstone): Promise<void> {
    await this.rememberings.submit(tombstone);
  }

  async tombstone(evaluationId: string, nowMs: number): Promise<Tombstone | undefined> {
    return (await this.lookups.submit({ evaluationId, nowMs })).tombstone;
  }

  async due(nowMs: number, limit: number): Promise<readonly PendingEvaluation[]> {
    this.admitted.prune(nowMs);
    const { rows } = await runPooled<PendingRow>(
      this.dataSource,
      `SELECT "payload", "commit_latch" FROM "pending_evaluations"
       WHERE "expires_at_ms" <= $1 ORDER BY "seq" LIMIT $2`,
      [nowMs, limit],
    );
    return rows.map((row) => decodePending(row.payload, row.commit_latch));
  }

  async pruneTombstones(nowMs: number): Promise<void> {
    // A tombstone is the last write-ahead copy of its record: make sure the record is in the trail first.
    await recoverAuditRecords(this.dataSource, { expiredBeforeMs: nowMs });
    await runPooled(this.dataSource, `DELETE FROM "evaluation_tombstones" WHERE "expires_at_ms" <= $1`, [
      nowMs,
    ]);
  }

  private async roomFor(queries: readonly RoomQuery[]): Promise<boolean[]> {
    const { count, bytes } = await this.backlog();
    this.backlogView.observe(count, bytes);
    return queries.map((query) => count < query.caps.maxCount && bytes + query.bytes <= query.caps.maxBytes);
  }

  private async admitBatch(items: readonly Admission[]): Promise<boolean[]> {
    // One statement applies one pair of caps; callers of one service share theirs, others go alone.
    const caps = items[0]?.caps;
    if (caps === undefined) return [];
    const sameCaps = items.every(
      (item) => item.caps.maxCount === caps.maxCount && item.caps.maxBytes === caps.maxBytes,
    );
    if (!sameCaps) return Promise.all(items.map(async (item) => (await this.admitBatch([item]))[0] === true));
    const entries = items.map((item) => item.entry);
    const { rows } = await runOnPool<{
      evaluation_id: string;
      backlog_count: string;
      backlog_bytes: string;
    }>(this.dataSource, ADMIT_BATCH, [
      entries.map((entry) => entry.evaluationId),
      JSON.stringify(entries.map(encodePending)),
      entries.map((entry) => entry.bytes),
      entries.map((entry) => entry.createdAtMs),
      entries.map((entry) => entry.expiresAtMs),
      entries.map((entry) => (entry.commit === undefined ? null : JSON.stringify(entry.commit))),
      caps.maxCount,
      caps.maxBytes,
      this.authority?.fenceKeys() ?? [],
    ]);
    const admitted = new Set(rows.map((row) => row.evaluation_id));
    const after = rows[0];
    if (admitted.size < entries.length) this.backlogView.forget();
    else if (after !== undefined)
      this.backlogView.observe(Number(after.backlog_count), Number(after.backlog_bytes));
    return entries.map((entry) => admitted.has(entry.evaluationId));
  }

  private async lookupBatch(queries: readonly LookupQuery[]): Promise<EvaluationLookup[]> {
    const { rows } = await runOnPool<LookupRow>(this.dataSource, LOOKUP_BATCH, [
      queries.map((query) => query.evaluationId),
    ]);
    const tombstones = new Map<string, TombstoneRow>();
    const pending = new Map<string, PendingRow>();
    for (const row of rows) (row.kind === 't' ? tombstones : pending).set(row.evaluation_id, row);
    return queries.map(({ evaluationId, nowMs }) => {
      const tombstone = tombstones.get(evaluationId);
      const entry = pending.get(evaluationId);
      return {
        // An aged-out tombstone is as good as none: the id is unknown.
        tombstone:
          tombstone === undefined || Number(tombstone.expires_at_ms) <= nowMs
            ? undefined
            : {
                evaluationId: tombstone.evaluation_id,
                auditRecordId: tombstone.audit_record_id,
                finalizedBy: tombstone.finalized_by,
                payloadHash: tombstone.payload_hash,
                expiresAtMs: Number(tombstone.expires_at_ms),
              },
        pending: entry === undefined ? undefined : decodePending(entry.payload, entry.commit_latch),
      };
    });
  }

  /** Finalize (returns which ids it finalized) or remember (all of them) a batch of tombstones. */
  private async writeTombstones(sql: NamedStatement, tombstones: readonly Tombstone[]): Promise<boolean[]> {
    const params: unknown[] = [
      tombstones.map((tombstone) => tombstone.evaluationId),
      tombstones.map((tombstone) => tombstone.auditRecordId),
      tombstones.map((tombstone) => tombstone.finalizedBy),
      tombstones.map((tombstone) => tombstone.payloadHash),
      tombstones.map((tombstone) => tombstone.expiresAtMs),
      JSON.stringify(
        tombstones.flatMap((tombstone) => (tombstone.record ? [auditRow(tombstone.record)] : [])),
      ),
    ];
    if (sql === REMEMBER_BATCH) {
      await runOnPool(this.dataSource, sql, params);
      return tombstones.map(() => true);
    }
    const carried = this.authority?.chargesFor(tombstones.map((tombstone) => tombstone.evaluationId));
    let written = false;
    try {
      const { rows } = await runOnPool<{ evaluation_id: string }>(this.dataSource, sql, [
        ...params,
        carried?.fenceKeys ?? [],
        JSON.stringify(carried?.charges ?? []),
        JSON.stringify(carried?.ledger ?? []),
        carried?.owner ?? null,
      ]);
      written = true;
      const finalized = new Set(rows.map((row) => row.evaluation_id));
      return tombstones.map((tombstone) => finalized.has(tombstone.evaluationId));
    } finally {
      carried?.settle(written);
    }
  }

  /** Count and bytes currently pending (tests, health). */
  async backlog(): Promise<{ readonly count: number; readonly bytes: number }> {
    const { rows } = await runOnPool<{ count: string; bytes: string }>(this.dataSource, BACKLOG, []);
    return { count: Number(rows[0]?.count ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  }
}
