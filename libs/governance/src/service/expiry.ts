/**
 * Deadlines, enforced on access (and by the sweep): a native ticket past its deadline becomes
 * `timeout`; an evaluation past `sdk.evaluation_ttl` is finalized as an `evaluation_expired` record
 * under its pre-allocated audit id. Nothing is committed by expiry; holds are released.
 */
import { type ApprovalTicket } from '../stores/approval-ticket-store.js';
import { type CommitLatch, type PendingEvaluation } from '../stores/pending-evaluation-store.js';
import { type AuditRecord } from '../stores/audit-record.js';
import { commitAndChain } from './committed-chain.js';
import { QUARANTINE_REASON, quarantinedRecord } from './quarantine.js';
import { finalizationRecord } from './record-builder.js';
import { appendRecord, nowIso, type ServiceContext } from './service-context.js';

/** What one run of the sweep did. */
export interface SweepReport {
  /** Evaluations finalized as `evaluation_expired` (quarantined ones included). */
  readonly expired: number;
  /** Entries whose expiry record could not be stored and went in quarantined (quarantine.ts). */
  readonly quarantined: readonly { readonly evaluationId: string; readonly reason: string }[];
  /** Attempts that failed because even the quarantined record could not be stored (a store outage). */
  readonly failed: number;
}

/** An evaluation after its deadlines were applied; `Quarantined`: expired, under a quarantined record. */
export type DeadlineState = 'Active' | 'Expired' | 'Quarantined';

/** Applies crossed deadlines; returns the entry's state afterwards. Call under the evaluation's lock. */
export async function enforceDeadlines(
  context: ServiceContext,
  entry: PendingEvaluation,
): Promise<DeadlineState> {
  const now = context.clock.now();
  if (now >= entry.expiresAtMs) return (await expire(context, entry)) ? 'Quarantined' : 'Expired';
  if (entry.approvalTicketId !== undefined) {
    const ticket = await context.stores.approvals.get(entry.approvalTicketId);
    if (ticket !== undefined) await timeOutIfDue(context, ticket, now);
  }
  return 'Active';
}

export async function timeOutIfDue(
  context: ServiceContext,
  ticket: ApprovalTicket,
  nowMs: number,
): Promise<void> {
  if (ticket.status === 'pending' && nowMs >= ticket.timeoutAtMs) {
    await context.stores.approvals.resolve(ticket.id, { status: 'timeout', resolvedAtMs: nowMs });
  }
}

/** Returns whether the record had to be quarantined. */
async function expire(context: ServiceContext, entry: PendingEvaluation): Promise<boolean> {
  const { stores } = context;
  const now = context.clock.now();
  let ticket: ApprovalTicket | undefined;
  if (entry.approvalTicketId !== undefined) {
    await stores.approvals.resolve(entry.approvalTicketId, { status: 'timeout', resolvedAtMs: now });
    ticket = await stores.approvals.get(entry.approvalTicketId);
  }
  // A commit that landed before a failed /audit keeps its chain: the ledger rows reference this id.
  const latch = entry.commit;
  if (latch === undefined && entry.reservationId !== undefined)
    await stores.limits.release(entry.reservationId);
  const chain: Record<string, unknown> = latch
    ? {
        ...(await committedChainOf(context, entry, latch, ticket, now)),
        sideband: { unreported: true, committed: true },
      }
    : {
        ...(entry.budgetsAtEvaluate === undefined ? {} : { budgets: entry.budgetsAtEvaluate }),
        sideband: { unreported: true },
      };
  if (ticket?.denialReason !== undefined) {
    chain['approval'] = { ticket_id: ticket.id, denial_reason: ticket.denialReason };
  }
  const record = finalizationRecord(entry, ticket, context.policy.environment, nowIso(context), {
    // Expiry is a bypass/tamper signal, not a block.
    blockReason: null,
    evidenceChain: chain,
    recordKind: 'evaluation_expired',
  });
  try {
    await finalizeExpired(context, entry, record, now);
    return false;
  } catch (error) {
    // This entry's record is unstorable: its quarantined form goes in instead. If that fails too, the
    // fault is not the entry's (the store is down) and the error goes to the caller.
    await finalizeExpired(context, entry, quarantinedRecord(record, error), now);
    return true;
  }
}

async function finalizeExpired(
  context: ServiceContext,
  entry: PendingEvaluation,
  record: AuditRecord,
  now: number,
): Promise<void> {
  await appendRecord(context, record);
  await context.stores.pending.finalize({
    evaluationId: entry.evaluationId,
    auditRecordId: entry.auditRecordId,
    finalizedBy: 'expired',
    payloadHash: null,
    expiresAtMs: now + context.policy.evaluationTtlMs,
    record,
  });
}

/**
 * The sweep: expires every due evaluation and forgets tombstones past their window. Each entry is
 * handled on its own: one that cannot be expired never stops the others.
 */
export async function expireDue(context: ServiceContext, batchSize = 500): Promise<SweepReport> {
  let expired = 0;
  let failed = 0;
  const quarantined: { evaluationId: string; reason: string }[] = [];
  for (;;) {
    const due = await context.stores.pending.due(context.clock.now(), batchSize);
    let failedInBatch = 0;
    for (const entry of due) {
      try {
        const state = await context.locks.run(entry.evaluationId, async () => {
          const current = await context.stores.pending.get(entry.evaluationId);
          return current === undefined ? 'Active' : enforceDeadlines(context, current);
        });
        if (state !== 'Active') expired += 1;
        if (state === 'Quarantined')
          quarantined.push({ evaluationId: entry.evaluationId, reason: QUARANTINE_REASON });
      } catch {
        failedInBatch += 1;
      }
    }
    failed += failedInBatch;
    // A batch that failed whole comes back unchanged: the next run retries it.
    if (due.length < batchSize || failedInBatch === due.length) break;
  }
  await context.stores.pending.pruneTombstones(context.clock.now());
  return { expired, quarantined, failed };
}

/** The chain the committed /audit built: kept on earlier latches, else rebuilt from the limit store's latch. */
async function committedChainOf(
  context: ServiceContext,
  entry: PendingEvaluation,
  latch: CommitLatch,
  ticket: ApprovalTicket | undefined,
  now: number,
): Promise<Readonly<Record<string, unknown>> | null> {
  if (latch.evidenceChain !== undefined) return latch.evidenceChain;
  if (entry.reservationId === undefined) return null;
  return commitAndChain(context, entry, entry.reservationId, latch, ticket, now);
}
