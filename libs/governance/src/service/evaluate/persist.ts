/**
 * Step 6, persistence. A terminal verdict (deny, a limit, dry-run) is recorded now and remembered for
 * /audit replays. A call that may run is admitted to the pending backlog (with a native ticket when it
 * waits for approval), for /audit to finalize; its holds are released if the backlog is full.
 */
import { type DriftVerdict } from '../../engine/decide.js';
import { sessionStrategySummary } from '../../engine/grounding.js';
import { type ApprovalTicket } from '../../stores/approval-ticket-store.js';
import { type AuditRecord } from '../../stores/audit-record.js';
import { type PendingEvaluation, type Tombstone } from '../../stores/pending-evaluation-store.js';
import { jsonByteLength, keyAmountJsonBytes } from '../../util/canonical-json.js';
import { buildRecord, parseObject } from '../record-builder.js';
import { nowIso, type ServiceContext } from '../service-context.js';
import { type Evaluation, type Passed, type TerminalVerdict } from './evaluation.js';

/** `[]`: what an empty list counts against the backlog byte cap. */
const EMPTY_ARRAY_BYTES = 2;

/** The record of a terminal verdict, under a fresh audit record id. */
export function terminalRecord(
  context: ServiceContext,
  evaluation: Evaluation,
  verdict: TerminalVerdict,
): AuditRecord {
  const { call, decision } = evaluation;
  const timestampIso = nowIso(context);
  const simulated = verdict.type === 'Simulated';
  return buildRecord({
    origin: call.origin,
    agentId: call.agentId,
    sessionId: call.sessionId ?? null,
    toolName: call.toolName,
    toolInput: parseObject(call.argsJson),
    metadata: call.metadata === null ? null : parseObject(call.metadataJson),
    matchedRule: decision.matchedRule?.name ?? null,
    matchedRuleIndex: decision.matchedRule?.index ?? null,
    flaggedDestructive: decision.flaggedDestructive,
    id: context.newId(),
    timestampIso,
    createdAtIso: timestampIso,
    environment: context.policy.environment,
    policyDecision: simulated && decision.originalAction === 'dry_run' ? 'dry_run' : decision.action,
    blockReason: simulated ? null : verdict.blockReason,
    evidenceChain: terminalChain(context, evaluation, verdict),
    dryRun: simulated,
    recordKind: 'tool_call',
  });
}

/** Remembers a terminal evaluation for one TTL, so its /audit replays (`finalized_by: evaluate`). */
export function terminalTombstone(
  context: ServiceContext,
  evaluation: Evaluation,
  record: AuditRecord,
): Tombstone {
  return {
    evaluationId: evaluation.evaluationId,
    auditRecordId: record.id,
    finalizedBy: 'evaluate',
    payloadHash: null,
    expiresAtMs: evaluation.nowMs + context.policy.evaluationTtlMs,
    record,
  };
}

/** The audit evidence of a terminal decision: the response's limits plus what grounded or gated it. */
function terminalChain(
  context: ServiceContext,
  { decision }: Evaluation,
  verdict: TerminalVerdict,
): Readonly<Record<string, unknown>> | null {
  const chain: Record<string, unknown> = { ...verdict.limits };
  if (decision.grounding.type !== 'not_required') chain['grounding'] = decision.grounding;
  if (decision.drift !== undefined) chain['tool_drift'] = driftAspects(decision.drift);
  if (verdict.type === 'Blocked' && verdict.blockReason === 'session_unresolved')
    chain['session'] = { unresolved: true, tried: sessionStrategySummary(context.policy) };
  if (verdict.type === 'Simulated') chain['dry_run'] = verdict.dryRun;
  return Object.keys(chain).length === 0 ? null : chain;
}

/**
 * The record names what drifted, not the two definitions: the response carries those (up to twice 64 KiB),
 * and every call to a drifted tool would otherwise store them again.
 */
function driftAspects({ mode, changes }: DriftVerdict): Readonly<Record<string, unknown>> {
  return { mode, changes: changes.map(({ aspect }) => ({ aspect })) };
}

/** The backlog entry of a call that may run; a require_approval call gets its ticket id here. */
export function pendingEntry(
  context: ServiceContext,
  evaluation: Evaluation,
  verdict: Passed,
): PendingEvaluation {
  const { call, decision, nowMs } = evaluation;
  const auditRecordId = context.newId();
  const ticketId = verdict.wire === 'require_approval' ? context.newId() : undefined;
  const charges = verdict.charges;
  const budgetsAtEvaluate = charges.some((charge) => charge.role === 'budget')
    ? verdict.budgetBlocks
    : undefined;
  const bytes =
    call.entryBytes +
    keyAmountJsonBytes(charges) +
    (budgetsAtEvaluate === undefined ? EMPTY_ARRAY_BYTES : jsonByteLength(budgetsAtEvaluate));
  // Written out rather than spread: a spread into this many fields is a slow path in V8.
  return {
    origin: call.origin,
    agentId: call.agentId,
    sessionId: call.sessionId ?? null,
    toolName: call.toolName,
    toolInputJson: call.argsJson,
    metadataJson: call.metadata === null ? null : call.metadataJson,
    matchedRuleIndex: decision.matchedRule?.index ?? null,
    flaggedDestructive: decision.flaggedDestructive,
    evaluationId: evaluation.evaluationId,
    auditRecordId,
    matchedRuleName: decision.matchedRule?.name ?? null,
    action: decision.action,
    reservationId: verdict.reservationId,
    charges,
    budgetsAtEvaluate,
    approvalTicketId: ticketId,
    timestampIso: nowIso(context),
    createdAtMs: nowMs,
    expiresAtMs: nowMs + context.policy.evaluationTtlMs,
    bytes,
  };
}

/** A pending entry that waits for its native ticket's resolution. */
export type TicketedEntry = PendingEvaluation & { readonly approvalTicketId: string };

export function awaitsApproval(entry: PendingEvaluation): entry is TicketedEntry {
  return entry.approvalTicketId !== undefined;
}

/**
 * The native ticket of an admitted require_approval call. A merged ticket (require_approval rule +
 * breached budgets) times out per the RULE; a budget-only ticket per the first breached budget; both
 * fall back to approval.timeout.
 */
export function approvalTicket(
  context: ServiceContext,
  evaluation: Evaluation,
  verdict: Passed,
  entry: TicketedEntry,
): ApprovalTicket {
  const { decision, nowMs } = evaluation;
  const { policy } = context;
  const budgetOnly = decision.action !== 'require_approval';
  const firstBreached = policy.budgets.find((budget) => verdict.breached.some((b) => b.name === budget.name));
  const timeoutMs =
    (budgetOnly ? firstBreached?.approvalTimeoutMs : decision.matchedRule?.approvalTimeoutMs) ??
    policy.approvalTimeoutMs;
  return {
    id: entry.approvalTicketId,
    evaluationId: evaluation.evaluationId,
    channelName: `native:${entry.origin}`,
    toolName: entry.toolName,
    toolInput: parseObject(entry.toolInputJson),
    matchedRule: entry.matchedRuleName,
    ruleIndex: entry.matchedRuleIndex,
    sessionId: entry.sessionId,
    requestedAtMs: nowMs,
    timeoutAtMs: nowMs + Math.min(timeoutMs, policy.evaluationTtlMs),
    timeoutMs,
    status: 'pending',
    breachedBudgets: verdict.breached.length > 0 ? verdict.breached : undefined,
  };
}
