/**
 * Deadlines, enforced on access (and by the sweep): a native ticket past its deadline becomes
 * `timeout`; an evaluation past `sdk.evaluation_ttl` is finalized as an `evaluation_expired` record
 * under its pre-allocated audit id. Nothing is committed by expiry; holds are released.
 */
import { type ApprovalTicket } from '../stores/approval-ticket-store.js';
import { type PendingEvaluation } from '../stores/pending-evaluation-store.js';
import { finalizationRecord } from './record-builder.js';
import { appendRecord, nowIso, type ServiceContext } from './service-context.js';

/** Applies crossed deadlines; returns the entry's state afterwards. Call under the evaluation's lock. */
export async function enforceDeadlines(
  context: ServiceContext,
  entry: PendingEvaluation,
): Promise<'active' | 'expired'> {
  const now = context.clock.now();
  if (now >= entry.expiresAtMs) {
    await expire(context, entry);
    return 'expired';
  }
  if (entry.approvalTicketId !== undefined) {
    const ticket = await context.stores.approvals.get(entry.approvalTicketId);
    if (ticket !== undefined) await timeOutIfDue(context, ticket, now);
  }
  return 'active';
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

async function expire(context: ServiceContext, entry: PendingEvaluation): Promise<void> {
  const { stores } = context;
  const now = context.clock.now();
  let ticket: ApprovalTicket | undefined;
  if (entry.approvalTicketId !== undefined) {
    await stores.approvals.resolve(entry.approvalTicketId, { status: 'timeout', resolvedAtMs: now });
    ticket = await stores.approvals.get(entry.approvalTicketId);
  }
  // A commit that landed before a failed /audit keeps its chain: the ledger rows reference this id.
  const committed = entry.commit !== undefined;
  if (!committed && entry.reservationId !== undefined) await stores.limits.release(entry.reservationId);
  const chain: Record<string, unknown> = committed
    ? { ...entry.commit?.evidenceChain, sideband: { unreported: true, committed: true } }
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
  await appendRecord(context, record);
  await stores.pending.finalize({
    evaluationId: entry.evaluationId,
    auditRecordId: entry.auditRecordId,
    finalizedBy: 'expired',
    payloadHash: null,
    expiresAtMs: now + context.policy.evaluationTtlMs,
    record,
  });
}

/** The sweep: expires every due evaluation and forgets tombstones past their window. */
export async function expireDue(context: ServiceContext, batchSize = 500): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await context.stores.pending.due(context.clock.now(), batchSize);
    for (const entry of due) {
      await context.locks.run(entry.evaluationId, async () => {
        const current = await context.stores.pending.get(entry.evaluationId);
        if (current !== undefined && (await enforceDeadlines(context, current)) === 'expired') expired += 1;
      });
    }
    if (due.length < batchSize) break;
  }
  await context.stores.pending.pruneTombstones(context.clock.now());
  return expired;
}
