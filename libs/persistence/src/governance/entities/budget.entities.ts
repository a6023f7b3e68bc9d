/**
 * The budget ledger (`budget_events`, every budget charge) and `budget_meta` (the epoch of each budget's
 * identity tuple), from migration GovernanceStores1764633600000. Epoch milliseconds are bigint, amounts
 * numeric micro-units (MoneyNumeric1764979200000); pg returns both as strings.
 */
import { EntitySchema } from 'typeorm';
import { atLeast, identityKey, MICRO_UNITS, oneOf } from './schema-terms.js';

export interface BudgetMetaRow {
  readonly budgetName: string;
  readonly identity: string;
  readonly epoch: number;
  readonly updatedAt: Date;
}

export const BudgetMetaEntity = new EntitySchema<BudgetMetaRow>({
  name: 'BudgetMeta',
  tableName: 'budget_meta',
  columns: {
    budgetName: {
      name: 'budget_name',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'budget_meta_pkey',
    },
    identity: { type: 'text' },
    epoch: { type: 'integer' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'budget_meta_epoch_check', expression: atLeast('epoch', 1) }],
});

export interface BudgetEventRow {
  readonly id: string;
  readonly budgetName: string;
  readonly epoch: number;
  readonly bucketKey: string;
  readonly kind: 'spend' | 'approved_overage';
  readonly amount: string;
  readonly currency: string;
  readonly toolName: string;
  readonly origin: string;
  /** No foreign key: the ledger row is written at commit, its audit record may follow. */
  readonly auditRecordId: string;
  readonly timestampMs: string;
  readonly createdAt: Date;
  /**
   * The reservation (evaluation id) the charge was held under (OwnedBudgetLedger1765756800000); null on
   * rows written before it. An owned pot's rows are its charges: a hand-back turns them into
   * `limit_charges` rows.
   */
  readonly reservationId: string | null;
}

export const BudgetEventEntity = new EntitySchema<BudgetEventRow>({
  name: 'BudgetEvent',
  tableName: 'budget_events',
  columns: {
    id: identityKey('budget_events'),
    budgetName: { name: 'budget_name', type: 'text' },
    epoch: { type: 'integer' },
    bucketKey: { name: 'bucket_key', type: 'text' },
    kind: { type: 'text' },
    amount: MICRO_UNITS,
    currency: { type: 'text' },
    toolName: { name: 'tool_name', type: 'text' },
    origin: { type: 'text' },
    auditRecordId: { name: 'audit_record_id', type: 'text' },
    timestampMs: { name: 'timestamp_ms', type: 'bigint' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    reservationId: { name: 'reservation_id', type: 'text', nullable: true },
  },
  indices: [
    { name: 'budget_events_pot', columns: ['budgetName', 'epoch', 'bucketKey', 'timestampMs'] },
    { name: 'budget_events_timestamp_ms', columns: ['timestampMs'] },
  ],
  checks: [
    { name: 'budget_events_epoch_check', expression: atLeast('epoch', 0) },
    { name: 'budget_events_kind_check', expression: oneOf('kind', ['spend', 'approved_overage']) },
    { name: 'budget_events_amount_check', expression: atLeast('amount', 0) },
  ],
});
