/**
 * @helios/governance — Tool-call policy engine: rules, limits, budgets, approvals, evidence, drift and audit.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export { PolicyConfigError, type PolicyConfigIssue } from './config/policy-config-error.js';
export { parsePolicyDocument, type LoadPolicyOptions } from './config/parse-policy.js';
export { loadPolicy } from './engine/load-policy.js';
export { compilePolicy, type CompileResult } from './engine/compile-policy.js';
export { type EnvironmentMap } from './config/interpolate.js';
export { parseDuration } from './config/duration.js';
export { INVALID_AMOUNT_TEXT } from './util/money.js';
export { type PolicyDocument } from './config/policy-schema.js';
export {
  DEFAULT_GOVERNANCE_LIMITS,
  resolveGovernanceLimits,
  type GovernanceLimits,
} from './config/governance-limits.js';

export {
  type CompiledBudget,
  type CompiledPolicy,
  type CompiledRule,
  type PolicyAction,
} from './engine/compiled-policy.js';
export { decide, type DecideInput, type PolicyDecision, type DriftVerdict } from './engine/decide.js';
export { DEFAULT_ANNOTATIONS, effectiveAnnotations, type ToolAnnotations } from './engine/annotations.js';
export { type GroundingOutcome, type GroundingSnapshot } from './engine/grounding.js';
export { type DriftAspect, type DriftChange } from './drift/drift-change.js';
export { diffDefinitions } from './drift/diff-definitions.js';

export { type Clock, systemClock } from './stores/clock.js';
export type * from './stores/limit-store.js';
export { RETIRED_BUDGET_IDENTITY } from './stores/limit-store.js';
export {
  bucketId,
  bucketIdOf,
  bucketWindow,
  checkSnapshot,
  usedSnapshot,
  committedSnapshot,
  emptySnapshot,
  isIdleSessionPot,
  ledgerNamesPot,
  nextBudgetEpoch,
  resetAtMs,
  retiredBudgetEpoch,
  sameWindow,
  usedOf,
  windowLengthMs,
  type BucketState,
  type BudgetEpoch,
} from './stores/limit-arithmetic.js';
export type * from './stores/pending-evaluation-store.js';
export type * from './stores/approval-ticket-store.js';
export {
  DEFAULT_EVIDENCE_TTL_SECONDS,
  type EvidenceStore,
  type EvidenceWrite,
  type EvidencePutOutcome,
  type EvidenceEntryView,
  type SessionStateView,
  type SessionStoreCaps,
} from './stores/evidence-store.js';
export type * from './stores/tool-baseline-store.js';
export { type AuditSink, type AuditDelivery } from './stores/audit-sink.js';
export { MemoryLimitStore } from './stores/memory/memory-limit-store.js';
export {
  SlidingBucket,
  type Charge as BucketCharge,
  type Hold as BucketHold,
} from './stores/memory/sliding-bucket.js';
export { MemoryPendingEvaluationStore } from './stores/memory/memory-pending-evaluation-store.js';
export { MemoryApprovalTicketStore } from './stores/memory/memory-approval-ticket-store.js';
export { MemoryEvidenceStore } from './stores/memory/memory-evidence-store.js';
export { MemoryToolBaselineStore } from './stores/memory/memory-tool-baseline-store.js';
export { MemoryAuditSink } from './stores/memory/memory-audit-sink.js';

export { GovernanceService, type GovernanceServiceOptions } from './service/governance-service.js';
export { type SweepReport } from './service/expiry.js';
export { quarantinedRecord, QUARANTINE_REASON } from './service/quarantine.js';
export { IDENTIFIER_MAX_BYTES } from './config/identifier-limits.js';
export { type GovernanceStores } from './service/service-context.js';
export { type AuditRecord, type BlockReason, type RecordKind } from './stores/audit-record.js';
export type * from './service/results.js';
export type * from './wire/wire-types.js';
export {
  REFERENCE_ERROR_TEXT,
  wireErrorBody,
  wireErrorCode,
  type TransportErrorCode,
  type WireErrorBody,
} from './wire/wire-errors.js';
export { type ChargeRole, type PlannedCharge } from './stores/planned-charge.js';

export {
  GovernanceClient,
  DEFAULT_CLIENT_TIMEOUT_MS,
  MAX_TRACKED_APPROVALS,
  type GovernanceClientOptions,
} from './client/governance-client.js';
export {
  KNOWN_DECISIONS,
  mayProceed,
  type ApprovalResolved,
  type Audited,
  type AuditOutcome,
  type AuditRefused,
  type EvaluateDecided,
  type EvaluateOutcome,
  type FailClosed,
  type FailClosedCause,
  type InstallScanDecided,
  type InstallScanOutcome,
  type Rejected,
  type ResolveApprovalOutcome,
  type UnrecognizedDecision,
} from './client/outcomes.js';
