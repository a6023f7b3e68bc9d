/**
 * POST /audit: finalizes a pending evaluation exactly once. Replays of the same payload answer
 * `Replayed` (`already_finalized`); a different payload is `evaluation_conflict`. Charges commit only when the
 * call ran (success/error); evidence is written only on success, on the first finalize.
 */
import { type ApprovalTicket } from '../stores/approval-ticket-store.js';
import { type PendingEvaluation, type Tombstone } from '../stores/pending-evaluation-store.js';
import { jsonByteLength } from '../util/canonical-json.js';
import { INVALID_AMOUNT_TEXT, toMicroUnits } from '../util/money.js';
import { type BlockReason } from '../stores/audit-record.js';
import { auditPayloadHash } from './audit-payload-hash.js';
import { commitAndChain } from './committed-chain.js';
import { enforceDeadlines } from './expiry.js';
import { finalizationRecord } from './record-builder.js';
import { recordedDuration, withDurationNote } from './recorded-duration.js';
import { failure, type AuditResult, type Failure } from './results.js';
import { appendRecord, nowIso, sessionStoreCaps, type ServiceContext } from './service-context.js';
import { type AuditRequest, type EvidenceOutcome } from '../wire/wire-types.js';

export async function auditCall(context: ServiceContext, request: AuditRequest): Promise<AuditResult> {
  // In-process callers can pass any value; one JSON cannot carry (a bigint) must not reach the payload hash.
  const actual: unknown = request.actual_amount;
  if (actual !== undefined && typeof actual !== 'number') return failure(INVALID_ACTUAL_AMOUNT);
  return context.locks.run(request.evaluation_id, () => finalize(context, request));
}

async function finalize(context: ServiceContext, request: AuditRequest): Promise<AuditResult> {
  const { stores } = context;
  const payloadHash = auditPayloadHash(request);
  const { tombstone, pending: entry } = await stores.pending.lookup(
    request.evaluation_id,
    context.clock.now(),
  );
  if (tombstone !== undefined) return answerFinalized(tombstone, payloadHash);
  if (entry === undefined) return failure({ error: 'evaluation_unknown' });
  if ((await enforceDeadlines(context, entry)) !== 'Active') return failure({ error: 'evaluation_expired' });

  let ticket: ApprovalTicket | undefined;
  if (entry.approvalTicketId !== undefined) {
    ticket = await stores.approvals.get(entry.approvalTicketId);
    if (ticket === undefined || ticket.status === 'pending') return failure({ error: 'approval_unresolved' });
  }
  const actualAmount = actualAmountOf(request, entry);
  if (actualAmount !== undefined && typeof actualAmount !== 'bigint') return actualAmount;
  if (entry.commit !== undefined && entry.commit.payloadHash !== payloadHash) {
    return failure({ error: 'evaluation_conflict' });
  }

  const ran = request.status === 'success' || request.status === 'error';
  const now = context.clock.now();
  const settled = { entry, ticket, ran, actualAmount, payloadHash, now };
  const duration = recordedDuration(request.duration_ms);
  const chain = withDurationNote(withDenial(await settleCharges(context, settled), ticket), duration);
  const record = finalizationRecord(entry, ticket, context.policy.environment, nowIso(context), {
    blockReason: auditBlockReason(entry, ticket, ran),
    evidenceChain: chain,
    recordKind: 'tool_call',
    upstreamResponse: recordedResult(context, request.result),
    upstreamError: request.status === 'error' ? (request.error ?? 'tool call failed') : null,
    upstreamLatencyMs: duration.ms,
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
  if (!won) return answerLostRace(context, request, entry, payloadHash);

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
  const body = { ok: true as const, audit_record_id: entry.auditRecordId };
  return { type: 'Finalized', body: evidence === undefined ? body : { ...body, evidence } };
}

/** An evaluation already finalized: a replay of the same audit (or any, when /evaluate or expiry finalized it). */
function answerFinalized(tombstone: Tombstone, payloadHash: string): AuditResult {
  switch (tombstone.finalizedBy) {
    case 'expired':
      return failure({ error: 'evaluation_expired' });
    case 'evaluate':
      return replayed(tombstone.auditRecordId, true);
    case 'audit':
      return tombstone.payloadHash === payloadHash
        ? replayed(tombstone.auditRecordId, false)
        : failure({ error: 'evaluation_conflict' });
  }
}

/**
 * Another process finalized this id first (the in-process lock cannot see it): answer as a retry would
 * be answered. Charges are committed once per reservation, whoever commits first.
 */
async function answerLostRace(
  context: ServiceContext,
  request: AuditRequest,
  entry: PendingEvaluation,
  payloadHash: string,
): Promise<AuditResult> {
  const winner = await context.stores.pending.tombstone(request.evaluation_id, context.clock.now());
  if (winner?.finalizedBy === 'expired') return failure({ error: 'evaluation_expired' });
  if (winner?.payloadHash !== payloadHash) return failure({ error: 'evaluation_conflict' });
  return replayed(entry.auditRecordId, false);
}

/** The 400 for an `actual_amount` that is no amount, with the one text that says what an amount is. */
const INVALID_ACTUAL_AMOUNT = Object.freeze({
  error: 'invalid_actual_amount',
  issues: Object.freeze([Object.freeze({ path: 'actual_amount', message: INVALID_AMOUNT_TEXT })]),
} as const);

/** `actual_amount` in micro-units; refused when unreadable or when nothing the call holds is spend. */
function actualAmountOf(request: AuditRequest, entry: PendingEvaluation): bigint | undefined | Failure {
  if (request.actual_amount === undefined) return undefined;
  const amount = toMicroUnits(request.actual_amount);
  if (amount === undefined) return failure(INVALID_ACTUAL_AMOUNT);
  if (!entry.charges.some((charge) => charge.role !== 'rate')) return failure({ error: 'no_spend_rule' });
  return amount;
}

interface Settlement {
  readonly entry: PendingEvaluation;
  readonly ticket: ApprovalTicket | undefined;
  /** The call executed (success or error): its holds become charges; otherwise they are released. */
  readonly ran: boolean;
  readonly actualAmount: bigint | undefined;
  readonly payloadHash: string;
  readonly now: number;
}

/**
 * Commits or releases the evaluation's holds and returns the chain. Once per reservation: a retry whose
 * commit was latched commits again, and the limit store's own latch answers the first commit's
 * snapshots without charging twice (an earlier latch that kept the chain itself is used as it is).
 */
async function settleCharges(
  context: ServiceContext,
  { entry, ticket, ran, actualAmount, payloadHash, now }: Settlement,
): Promise<Readonly<Record<string, unknown>> | null> {
  if (entry.commit?.evidenceChain !== undefined) return entry.commit.evidenceChain;
  if (entry.reservationId === undefined) return null;
  const { stores } = context;
  if (!ran) {
    await stores.limits.release(entry.reservationId);
    return entry.budgetsAtEvaluate === undefined ? null : { budgets: entry.budgetsAtEvaluate };
  }
  const latch = { payloadHash, actualAmount: actualAmount === undefined ? null : actualAmount.toString() };
  const chain = await commitAndChain(context, entry, entry.reservationId, latch, ticket, now);
  // Latched before anything else can fail, so a retry skips straight past the commit.
  if (entry.commit === undefined && stores.limits.writesCommitLatch !== true) {
    await stores.pending.latchCommit(entry.evaluationId, latch);
  }
  return chain;
}

/** A denied ticket's reason goes into the chain. */
function withDenial(
  chain: Readonly<Record<string, unknown>> | null,
  ticket: ApprovalTicket | undefined,
): Readonly<Record<string, unknown>> | null {
  if (ticket?.denialReason === undefined) return chain;
  return { ...chain, approval: { ticket_id: ticket.id, denial_reason: ticket.denialReason } };
}

function replayed(auditRecordId: string, byEvaluate: boolean): AuditResult {
  return {
    type: 'Replayed',
    body: {
      ok: true,
      audit_record_id: auditRecordId,
      already_finalized: true,
      ...(byEvaluate ? { finalized_by: 'evaluate' as const } : {}),
    },
  };
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
      if (stored === 'Stored') outcomes.push({ evidence_key: key, stored: true });
      else refuse(stored === 'Closed' ? 'closed' : 'session_capacity_exhausted');
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
