/**
 * @helios/governance/testing — the package's test kit: a GovernanceService over in-memory stores with a
 * manual clock (`harness`), and contract suites every store implementation runs, so the in-memory stores
 * and the PostgreSQL ones are held to the same cases. Imports `vitest`; use it from tests only.
 */
export { allowAllPolicy, decidedBody, harness, ManualClock, type Harness } from './service-harness.js';
export { type ContractFactory, type ContractSubject } from './contracts/contract-subject.js';
export {
  bucketCheck,
  chargeContext,
  describeLimitStoreContract,
  reserveRequest,
  type LedgeredLimitStore,
} from './contracts/limit-store-contract.js';
export {
  describeLimitStoreModel,
  LIMIT_MODEL_SEED,
  type LimitStoreModelOptions,
} from './contracts/limit-store-model-contract.js';
export { LimitStoreModel } from './contracts/limit-store-model.js';
export {
  describeLimitStoreConcurrency,
  type LimitStoreConcurrencyOptions,
} from './contracts/limit-store-concurrency-contract.js';
export {
  describePendingEvaluationStoreContract,
  pendingEntry,
  tombstone,
  type BacklogReportingStore,
} from './contracts/pending-evaluation-store-contract.js';
export {
  approvalTicket,
  describeApprovalTicketStoreContract,
} from './contracts/approval-ticket-store-contract.js';
export {
  auditRecord,
  describeAuditSinkContract,
  type AuditSinkSubject,
} from './contracts/audit-sink-contract.js';
