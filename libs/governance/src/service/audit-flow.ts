/**
 * POST /audit: finalizes a pending evaluation exactly once. Replays of the same payload answer 200
 * `already_finalized`; a different payload is 409 `evaluation_conflict`. Charges commit only when the
 * call ran (success/error); evidence is written only on success, on the first finalize.
 */
import { type ApprovalTicket } from '../stores/approval-ticket-store.js';
import { type BucketSnapshot, type CommitCharge } from '../stores/limit-store.js';
import { type PendingEvaluation } from '../stores/pending-evaluation-store.js';
import { jsonByteLength } from '../util/canonical-json.js';
import { fromMicroUnits, toMicroUnits } from '../util/money.js';
import { type BlockReason } from './audit-record.js';
import { auditPayloadHash } from './audit-payload-hash.js';
import { enforceDeadlines } from './expiry.js';
import { finalizationRecord } from './record-builder.js';
import { failure, type AuditResult } from './results.js';
import { appendRecord, nowIso, sessionStoreCaps, type ServiceContext } from './service-context.js';
import { budgetBlock } from './wire-blocks.js';
import { type AuditRequest, type EvidenceOutcome } from './wire-types.js';
import { type PlannedCharge } from './limit-planning.js';

export async function auditCall(context: ServiceContext, request: AuditRequest): Promise<AuditResult> {
  return context.locks.run(request.evaluation_id, () => finalize(context, request));
}

async function finalize(context: ServiceContext, request: AuditRequest): Promise<AuditResult> {
  const { stores } = context;
  const payloadHash = auditPayloadHash(request);
  const { tombstone, pending: entry } = await stores.pending.lookup(
    request.evaluation_id,
    context.clock.now(),
  );
  if (tombstone !== undefined) {
    switch (tombstone.finalizedBy) {
      case 'expired':
        return failure(404, { error: 'evaluation_expired' });
      case 'evaluate':
        return replayed(tombstone.auditRecordId, true);
      case 'audit':
        return tombstone.payloadHash === payloadHash
          ? replayed(tombstone.auditRecordId, false)
          : failure(409, { error: 'evaluation_conflict' });
    }
  }
  if (entry === undefined) return failure(404, { error: 'evaluation_unknown' });
  if ((await enforceDeadlines(context, entry)) !== 'active')
    return failure(404, { error: 'evaluation_expired' });

  let ticket: ApprovalTicket | undefined;
  if (entry.approvalTicketId !== undefined) {
    ticket = await stores.approvals.get(entry.approvalTicketId);
    if (ticket === undefined || ticket.status === 'pending')
      return failure(409, { error: 'approval_unresolved' });
  }

  let actualAmount: bigint | undefined;
  if (request.actual_amount !== undefined) {
    actualAmount = toMicroUnits(request.actual_amount);
    if (actualAmount === undefined) return failure(400, { error: 'invalid_actual_amount' });
    if (!entry.charges.some((charge) => charge.role !== 'rate'))
      return failure(400, { error: 'no_spend_rule' });
  }
  if (entry.commit !== undefined && entry.commit.payloadHash !== payloadHash) {
    return failure(409, { error: 'evaluation_conflict' });
  }

  const ran = request.status === 'success' || request.status === 'error';
  const now = context.clock.now();
  let chain: Readonly<Record<string, unknown>> | null = entry.commit?.evidenceChain ?? null;
  if (entry.commit === undefined && entry.reservationId !== undefined) {
    if (ran) {
      const charges = commitCharges(entry, actualAmount, ticket?.status === 'approved');
      const snapshots = await stores.limits.commit(
        entry.reservationId,
        charges,
        { auditRecordId: entry.auditRecordId, toolName: entry.toolName, origin: entry.origin },
        now,
      );
      chain = committedChain(context, charges, snapshots);
      // Latched before anything else can fail, so a retry skips straight past the commit.
      await stores.pending.latchCommit(entry.evaluationId, { payloadHash, evidenceChain: chain });
    } else {
      await stores.limits.release(entry.reservationId);
      chain = entry.budgetsAtEvaluate === undefined ? null : { budgets: entry.budgetsAtEvaluate };
    }
  }
  if (ticket?.denialReason !== undefined) {
    chain = { ...chain, approval: { ticket_id: ticket.id, denial_reason: ticket.denialReason } };
  }

  const record = finalizationRecord(entry, ticket, context.policy.environment, nowIso(context), {
    blockReason: auditBlockReason(entry, ticket, ran),
    evidenceChain: chain,
    recordKind: 'tool_call',
    upstreamResponse: recordedResult(context, request.result),
    upstreamError: request.status === 'error' ? (request.error ?? 'tool call failed') : null,
    upstreamLatencyMs: request.duration_ms ?? null,
  });
  await appendRecord(context, record);
  const won = await stores.pending.finalize({
    evaluationId: entry.evaluationId,
    auditRecordId: entry.auditRecordId,
    finalizedBy: 'audit',
    payloadHash,
    expiresAtMs: context.clock.now() + context.policy.evaluationTtlMs,
    record,
  });
  if (!won) {
    // Another process finalized this id first (the in-process lock cannot see it): answer as a retry
    // would be answered. Charges are committed once per reservation, whoever commits first.
    const winner = await stores.pending.tombstone(request.evaluation_id, context.clock.now());
    if (winner?.finalizedBy === 'expired') return failure(404, { error: 'evaluation_expired' });
    if (winner?.payloadHash !== payloadHash) return failure(409, { error: 'evaluation_conflict' });
    return replayed(entry.auditRecordId, false);
  }

  // Session state and evidence only once this audit won the finalization: never for a replay.
  if (ran && stores.evidence !== undefined && entry.sessionId !== null) {
    await stores.evidence.recordToolCall(
      entry.sessionId,
      entry.toolName,
      request.status === 'success',
      now,
      sessionStoreCaps(context),
    );
  }
  const evidence = await populateEvidence(context, request, entry);
  return {
    type: 'finalized',
    status: 201,
    body: {
      ok: true,
      audit_record_id: entry.auditRecordId,
      ...(evidence === undefined ? {} : { evidence }),
    },
  };
}

function replayed(auditRecordId: string, byEvaluate: boolean): AuditResult {
  return {
    type: 'replayed',
    status: 200,
    body: {
      ok: true,
      audit_record_id: auditRecordId,
      already_finalized: true,
      ...(byEvaluate ? { finalized_by: 'evaluate' as const } : {}),
    },
  };
}

/**
 * `actual_amount` is the call's one true cost: it replaces the spend-rule amount and every budget
 * charge. A breached break-glass budget commits as `approved_overage` only when the ticket was
 * approved; any other executed call (denied/timeout ticket the host ignored) commits plain spend.
 */
function commitCharges(
  entry: PendingEvaluation,
  actualAmount: bigint | undefined,
  approved: boolean,
): CommitCharge[] {
  return entry.charges.map((charge) => {
    const amount = charge.role === 'rate' ? charge.amount : (actualAmount ?? charge.amount);
    if (charge.role !== 'budget') return { ...stripPlan(charge), amount };
    return {
      ...stripPlan(charge),
      amount,
      ledger: {
        budgetName: charge.budgetName ?? '',
        kind: charge.breached && approved ? 'approved_overage' : 'spend',
        currency: charge.currency ?? '',
      },
    };
  });
}

function stripPlan(charge: PlannedCharge): CommitCharge {
  const { role: _role, budgetName: _budgetName, currency: _currency, breached: _breached, ...check } = charge;
  return check;
}

function committedChain(
  context: ServiceContext,
  charges: readonly CommitCharge[],
  snapshots: readonly BucketSnapshot[],
): Readonly<Record<string, unknown>> {
  const chain: Record<string, unknown> = {};
  const budgets: unknown[] = [];
  charges.forEach((charge, i) => {
    const snapshot = snapshots[i];
    if (snapshot === undefined) return;
    if (charge.family === 'rate') {
      chain['rate_limit'] = {
        allowed: snapshot.allowed,
        current: Number(snapshot.used),
        limit: Number(charge.limit),
        window_ms: charge.window.type === 'sliding' ? charge.window.ms : null,
        reset_at_ms: snapshot.resetAtMs,
      };
    } else if (charge.family === 'spend') {
      chain['spend_limit'] = {
        allowed: snapshot.allowed,
        current_spend: fromMicroUnits(snapshot.used),
        limit: fromMicroUnits(charge.limit),
        window_ms: charge.window.type === 'sliding' ? charge.window.ms : null,
        reset_at_ms: snapshot.resetAtMs,
      };
    } else {
      const budget = context.policy.budgets.find((b) => b.name === charge.ledger?.budgetName);
      if (budget === undefined) return;
      // Post-commit numbers: `spent` includes this charge.
      budgets.push(budgetBlock(budget, charge.amount, snapshot, charge.ledger?.kind));
    }
  });
  if (budgets.length > 0) chain['budgets'] = budgets;
  return chain;
}

/**
 * Honoured budget-only break-glass denials/timeouts are budget blocks (the MCP door's value); a
 * denied merged ticket keeps approval_denied; executed-despite-denied keeps the approval reason.
 */
function auditBlockReason(
  entry: PendingEvaluation,
  ticket: ApprovalTicket | undefined,
  ran: boolean,
): BlockReason | null {
  const status = ticket?.status;
  const budgetOnly = entry.action !== 'require_approval' && entry.charges.some((charge) => charge.breached);
  if (!ran && budgetOnly && (status === 'denied' || status === 'timeout')) return 'budget_exceeded';
  if (status === 'denied') return 'approval_denied';
  if (status === 'timeout') return 'approval_timeout';
  if (status === 'cancelled') return 'cancelled';
  return null;
}

async function populateEvidence(
  context: ServiceContext,
  request: AuditRequest,
  entry: PendingEvaluation,
): Promise<readonly EvidenceOutcome[] | undefined> {
  const entries = request.evidence;
  if (request.status !== 'success' || entries === undefined || entries.length === 0) return undefined;
  const { limits, policy, stores } = context;
  const outcomes: EvidenceOutcome[] = [];
  for (const [i, item] of entries.entries()) {
    const key = item.evidence_key;
    const refuse = (reason: NonNullable<EvidenceOutcome['reason']>): void => {
      outcomes.push({ evidence_key: key, stored: false, reason });
    };
    if (i >= limits.maxEvidenceEntries) refuse('too_many');
    else if (jsonByteLength(item.evidence_data ?? null) > limits.maxEvidenceBytes) refuse('too_large');
    else if (stores.evidence === undefined) refuse('evidence_unavailable');
    else if (entry.sessionId === null) refuse('no_session');
    else if (!policy.evidenceKeys.has(key)) refuse('key_not_in_policy_allowlist');
    else {
      const stored = await stores.evidence.put(
        entry.sessionId,
        { key, data: item.evidence_data, toolName: entry.toolName, ttlSeconds: item.ttl_seconds },
        context.clock.now(),
        sessionStoreCaps(context),
      );
      if (stored === 'stored') outcomes.push({ evidence_key: key, stored: true });
      else refuse(stored === 'capacity_exhausted' ? 'session_capacity_exhausted' : stored);
    }
  }
  return outcomes;
}

/**
 * What the record keeps of the adapter's `result`: all of it, or with `audit.include_responses: false`
 * only that there was one and its size, so a trail that must not hold tool output never does.
 */
function recordedResult(context: ServiceContext, result: unknown): unknown {
  if (result === undefined || result === null) return null;
  if (context.policy.document.audit.include_responses) return result;
  return { omitted: true, bytes: jsonByteLength(result) };
}
