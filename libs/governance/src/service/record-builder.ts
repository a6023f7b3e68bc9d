/** Builds audit records for the adapter door (S:): upstream/timing columns are fixed by the seed. */
import { type ApprovalTicket } from '../stores/approval-ticket-store.js';
import { type PendingEvaluation } from '../stores/pending-evaluation-store.js';
import { type AuditRecord, type BlockReason, type RecordKind } from '../stores/audit-record.js';

/** A fresh object from the JSON text an entry keeps of the caller's arguments or metadata. */
export function parseObject(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

export interface RecordFields {
  readonly id: string;
  readonly timestampIso: string;
  readonly createdAtIso: string;
  readonly environment: string | undefined;
  readonly origin: string;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly policyDecision: string;
  readonly blockReason: BlockReason | null;
  readonly matchedRule: string | null;
  readonly matchedRuleIndex: number | null;
  readonly evidenceChain: Readonly<Record<string, unknown>> | null;
  readonly flaggedDestructive: boolean;
  readonly dryRun: boolean;
  readonly recordKind: RecordKind;
  readonly approvalStatus?: string | null;
  readonly approvedBy?: string | null;
  readonly upstreamResponse?: unknown;
  readonly upstreamError?: string | null;
  readonly upstreamLatencyMs?: number | null;
}

export function buildRecord(fields: RecordFields): AuditRecord {
  return {
    id: fields.id,
    timestamp: fields.timestampIso,
    sessionId: fields.sessionId,
    agentId: fields.agentId,
    toolName: fields.toolName,
    toolInput: fields.toolInput,
    policyDecision: fields.policyDecision,
    blockReason: fields.blockReason,
    matchedRule: fields.matchedRule,
    evidenceChain: fields.evidenceChain,
    approvalStatus: fields.approvalStatus ?? null,
    approvedBy: fields.approvedBy ?? null,
    upstreamResponse: fields.upstreamResponse ?? null,
    upstreamError: fields.upstreamError ?? null,
    upstreamHttpStatus: null,
    upstreamLatencyMs: fields.upstreamLatencyMs ?? null,
    totalDurationMs: 0,
    approvalWaitMs: 0,
    proxyComputeMs: 0,
    flaggedDestructive: fields.flaggedDestructive,
    dryRun: fields.dryRun,
    createdAt: fields.createdAtIso,
    environment: fields.environment ?? null,
    matchedRuleIndex: fields.matchedRuleIndex,
    recordKind: fields.recordKind,
    origin: fields.origin,
    metadata: fields.metadata,
    sessionSource: 'sideband',
    protocolVersion: null,
  };
}

/** Enforcement records (any block, approval outcome or expiry) are flushed at once. */
export function isEnforcement(record: AuditRecord): boolean {
  return (
    record.recordKind === 'evaluation_expired' ||
    record.blockReason !== null ||
    record.approvalStatus !== null
  );
}

/** What a finalization (audit or expiry) adds to the fields it copies from its pending evaluation. */
export interface FinalizationFields {
  readonly blockReason: BlockReason | null;
  readonly evidenceChain: Readonly<Record<string, unknown>> | null;
  readonly recordKind: RecordKind;
  readonly upstreamResponse?: unknown;
  readonly upstreamError?: string | null;
  readonly upstreamLatencyMs?: number | null;
}

/**
 * The record that finalizes a pending evaluation (audit and expiry alike): its fields copied from the
 * entry and the ticket, plus the outcome. Fields are written out, not spread: spreading this many
 * fields into a new object is a slow path in V8, and this runs on every /audit.
 */
export function finalizationRecord(
  entry: PendingEvaluation,
  ticket: ApprovalTicket | undefined,
  environment: string | undefined,
  createdAtIso: string,
  outcome: FinalizationFields,
): AuditRecord {
  return buildRecord({
    id: entry.auditRecordId,
    timestampIso: entry.timestampIso,
    createdAtIso,
    environment,
    origin: entry.origin,
    agentId: entry.agentId,
    sessionId: entry.sessionId,
    toolName: entry.toolName,
    toolInput: parseObject(entry.toolInputJson),
    metadata: entry.metadataJson === null ? null : parseObject(entry.metadataJson),
    policyDecision: entry.action,
    blockReason: outcome.blockReason,
    matchedRule: entry.matchedRuleName,
    matchedRuleIndex: entry.matchedRuleIndex,
    evidenceChain: outcome.evidenceChain,
    flaggedDestructive: entry.flaggedDestructive,
    dryRun: false,
    recordKind: outcome.recordKind,
    approvalStatus: ticket?.status ?? null,
    approvedBy: ticket?.resolvedBy ?? null,
    upstreamResponse: outcome.upstreamResponse,
    upstreamError: outcome.upstreamError,
    upstreamLatencyMs: outcome.upstreamLatencyMs,
  });
}
