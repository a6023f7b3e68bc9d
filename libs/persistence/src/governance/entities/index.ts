/** The governance tables' entities (one per table the governance migrations create). */
import { ApprovalTicketEntity } from './approval-ticket.entity.js';
import { AuditRecordEntity } from './audit-record.entity.js';
import { BudgetEventEntity, BudgetMetaEntity } from './budget.entities.js';
import {
  LimitBucketEntity,
  LimitChargeEntity,
  LimitChargeJournalEntity,
  LimitChargeRunEntity,
  LimitCommitEntity,
  LimitHoldEntity,
} from './limit.entities.js';
import {
  EvaluationTombstoneEntity,
  PendingBacklogEntity,
  PendingBacklogFreedEntity,
  PendingEvaluationEntity,
} from './pending.entities.js';

export { ApprovalTicketEntity, type ApprovalTicketRow } from './approval-ticket.entity.js';
export { AuditRecordEntity, type AuditRecordRow } from './audit-record.entity.js';
export {
  BudgetEventEntity,
  BudgetMetaEntity,
  type BudgetEventRow,
  type BudgetMetaRow,
} from './budget.entities.js';
export {
  LimitBucketEntity,
  LimitChargeEntity,
  LimitChargeJournalEntity,
  LimitChargeRunEntity,
  LimitCommitEntity,
  LimitHoldEntity,
  type LimitBucketRow,
  type LimitChargeRow,
  type LimitChargeJournalRow,
  type LimitChargeRunRow,
  type LimitCommitRow,
  type LimitHoldRow,
} from './limit.entities.js';
export {
  EvaluationTombstoneEntity,
  PendingBacklogEntity,
  PendingBacklogFreedEntity,
  PendingEvaluationEntity,
  type EvaluationTombstoneRow,
  type PendingBacklogFreedRow,
  type PendingBacklogRow,
  type PendingEvaluationRow,
} from './pending.entities.js';

export const GOVERNANCE_ENTITIES = [
  AuditRecordEntity,
  LimitBucketEntity,
  LimitHoldEntity,
  LimitChargeEntity,
  LimitChargeJournalEntity,
  LimitChargeRunEntity,
  LimitCommitEntity,
  BudgetMetaEntity,
  BudgetEventEntity,
  PendingEvaluationEntity,
  PendingBacklogEntity,
  PendingBacklogFreedEntity,
  EvaluationTombstoneEntity,
  ApprovalTicketEntity,
] as const;
