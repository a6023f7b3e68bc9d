/**
 * The limit store's tables (migration GovernanceStores1764633600000): buckets, the holds and charges
 * against them, and the commit latches that make a commit idempotent per reservation id. Epoch
 * milliseconds (`*_ms`) are bigint, amounts numeric micro-units (MoneyNumeric1764979200000); pg
 * returns both as strings.
 */
import { EntitySchema } from 'typeorm';
import { atLeast, identityKey, MICRO_UNITS, oneOf } from './schema-terms.js';

export interface LimitBucketRow {
  /** family|epoch|key. */
  readonly bucketId: string;
  readonly family: 'rate' | 'spend' | 'budget';
  readonly epoch: number;
  readonly bucketKey: string;
  readonly windowType: 'sliding' | 'session';
  readonly windowMs: string;
  readonly senderScoped: boolean;
  readonly lastActivityMs: string;
  readonly createdAt: Date;
  /** Running sums of the bucket's charge and hold rows (LimitRunningSums1765152000000). */
  readonly charged: string;
  readonly chargeCount: string;
  readonly held: string;
  readonly holdCount: number;
  /** Oldest charge row's instant; null when none. */
  readonly oldestMs: string | null;
  /** No hold expires before this instant (a lower bound); null when none was placed since it was last exact. */
  readonly holdExpiryMs: string | null;
  /** The instant the bucket stops being live (no unexpired hold, no counting charge). */
  readonly liveUntilMs: string;
  /**
   * The process deciding this bucket in memory (LimitLocalAuthority1765584000000); null when it is
   * shared. While owned, the running sums above are not maintained.
   */
  readonly owner: string | null;
  /** When an owner last handed it back because another process needed it (the claim cooldown). */
  readonly demotedAtMs: string | null;
  /**
   * An owned budget bucket's claim mark (OwnedBudgetLedger1765756800000): its pot's ledger rows with a
   * larger id are the owner's charges. Null when shared, or not a budget.
   */
  readonly ledgerMark: string | null;
}

export const LimitBucketEntity = new EntitySchema<LimitBucketRow>({
  name: 'LimitBucket',
  tableName: 'limit_buckets',
  columns: {
    bucketId: {
      name: 'bucket_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'limit_buckets_pkey',
    },
    family: { type: 'text' },
    epoch: { type: 'integer' },
    bucketKey: { name: 'bucket_key', type: 'text' },
    windowType: { name: 'window_type', type: 'text' },
    windowMs: { name: 'window_ms', type: 'bigint' },
    senderScoped: { name: 'sender_scoped', type: 'boolean' },
    lastActivityMs: { name: 'last_activity_ms', type: 'bigint' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    charged: { type: 'numeric', default: 0 },
    chargeCount: { name: 'charge_count', type: 'bigint', default: 0 },
    held: { type: 'numeric', default: 0 },
    holdCount: { name: 'hold_count', type: 'integer', default: 0 },
    oldestMs: { name: 'oldest_ms', type: 'bigint', nullable: true },
    holdExpiryMs: { name: 'hold_expiry_ms', type: 'bigint', nullable: true },
    liveUntilMs: { name: 'live_until_ms', type: 'bigint', default: 0 },
    owner: { type: 'text', nullable: true },
    demotedAtMs: { name: 'demoted_at_ms', type: 'bigint', nullable: true },
    ledgerMark: { name: 'ledger_mark', type: 'bigint', nullable: true },
  },
  indices: [
    { name: 'limit_buckets_owner', columns: ['owner'], where: '"owner" IS NOT NULL' },
    // The sender-key capacity counts live sender-scoped buckets through this index.
    { name: 'limit_buckets_sender_live', columns: ['liveUntilMs'], where: '"sender_scoped"' },
  ],
  checks: [
    { name: 'limit_buckets_family_check', expression: oneOf('family', ['rate', 'spend', 'budget']) },
    { name: 'limit_buckets_epoch_check', expression: atLeast('epoch', 0) },
    { name: 'limit_buckets_window_type_check', expression: oneOf('window_type', ['sliding', 'session']) },
    { name: 'limit_buckets_window_ms_check', expression: atLeast('window_ms', 0) },
    { name: 'limit_buckets_charged_check', expression: atLeast('charged', 0) },
    { name: 'limit_buckets_charge_count_check', expression: atLeast('charge_count', 0) },
    { name: 'limit_buckets_held_check', expression: atLeast('held', 0) },
    { name: 'limit_buckets_hold_count_check', expression: atLeast('hold_count', 0) },
  ],
});

export interface LimitHoldRow {
  readonly reservationId: string;
  readonly bucketId: string;
  readonly amount: string;
  readonly expiresAtMs: string;
}

export const LimitHoldEntity = new EntitySchema<LimitHoldRow>({
  name: 'LimitHold',
  tableName: 'limit_holds',
  columns: {
    reservationId: {
      name: 'reservation_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'limit_holds_pkey',
    },
    bucketId: {
      name: 'bucket_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'limit_holds_pkey',
    },
    amount: MICRO_UNITS,
    expiresAtMs: { name: 'expires_at_ms', type: 'bigint' },
  },
  foreignKeys: [
    {
      name: 'limit_holds_bucket_id_fkey',
      target: LimitBucketEntity,
      columnNames: ['bucketId'],
      referencedColumnNames: ['bucketId'],
      onDelete: 'CASCADE',
    },
  ],
  indices: [{ name: 'limit_holds_bucket_expiry', columns: ['bucketId', 'expiresAtMs'] }],
  checks: [{ name: 'limit_holds_amount_check', expression: atLeast('amount', 0) }],
});

/** An owned bucket's charges written together, as aligned arrays (migration LimitLocalAuthority). */
export interface LimitChargeRunRow {
  readonly id: string;
  readonly bucketId: string;
  readonly lastMs: string;
  readonly reservationIds: string[];
  readonly amounts: string[];
  readonly atMs: string[];
}

export const LimitChargeRunEntity = new EntitySchema<LimitChargeRunRow>({
  name: 'LimitChargeRun',
  tableName: 'limit_charge_runs',
  columns: {
    id: identityKey('limit_charge_runs'),
    bucketId: { name: 'bucket_id', type: 'text' },
    lastMs: { name: 'last_ms', type: 'bigint' },
    reservationIds: { name: 'reservation_ids', type: 'text', array: true },
    amounts: { ...MICRO_UNITS, array: true },
    atMs: { name: 'at_ms', type: 'bigint', array: true },
  },
  indices: [{ name: 'limit_charge_runs_bucket_last', columns: ['bucketId', 'lastMs'] }],
});

/**
 * An owner's charges of one finalization batch, of any of its buckets, as aligned arrays (migration
 * OwnerChargeJournal): compacted into runs now and then, and when a bucket in it is handed back.
 */
export interface LimitChargeJournalRow {
  readonly owner: string;
  readonly id: string;
  readonly bucketIds: string[];
  readonly reservationIds: string[];
  readonly amounts: string[];
  readonly atMs: string[];
}

export const LimitChargeJournalEntity = new EntitySchema<LimitChargeJournalRow>({
  name: 'LimitChargeJournal',
  tableName: 'limit_charge_journal',
  columns: {
    owner: { type: 'text', primary: true, primaryKeyConstraintName: 'limit_charge_journal_pkey' },
    id: identityKey('limit_charge_journal'),
    bucketIds: { name: 'bucket_ids', type: 'text', array: true },
    reservationIds: { name: 'reservation_ids', type: 'text', array: true },
    amounts: { ...MICRO_UNITS, array: true },
    atMs: { name: 'at_ms', type: 'bigint', array: true },
  },
});

export interface LimitChargeRow {
  readonly id: string;
  readonly bucketId: string;
  readonly reservationId: string;
  readonly amount: string;
  readonly atMs: string;
}

export const LimitChargeEntity = new EntitySchema<LimitChargeRow>({
  name: 'LimitCharge',
  tableName: 'limit_charges',
  columns: {
    id: identityKey('limit_charges'),
    bucketId: { name: 'bucket_id', type: 'text' },
    reservationId: { name: 'reservation_id', type: 'text' },
    amount: MICRO_UNITS,
    atMs: { name: 'at_ms', type: 'bigint' },
  },
  foreignKeys: [
    {
      name: 'limit_charges_bucket_id_fkey',
      target: LimitBucketEntity,
      columnNames: ['bucketId'],
      referencedColumnNames: ['bucketId'],
      onDelete: 'CASCADE',
    },
  ],
  indices: [
    // The migration's index also carries INCLUDE ("amount"), which TypeORM cannot express: declared,
    // never synchronized (README, "What the entities cannot say").
    { name: 'limit_charges_bucket_at', columns: ['bucketId', 'atMs'], synchronize: false },
    { name: 'limit_charges_at', columns: ['atMs'] },
  ],
  checks: [{ name: 'limit_charges_amount_check', expression: atLeast('amount', 0) }],
});

export interface LimitCommitRow {
  readonly reservationId: string;
  readonly snapshots: unknown;
  readonly committedAtMs: string;
}

export const LimitCommitEntity = new EntitySchema<LimitCommitRow>({
  name: 'LimitCommit',
  tableName: 'limit_commits',
  columns: {
    reservationId: {
      name: 'reservation_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'limit_commits_pkey',
    },
    snapshots: { type: 'jsonb', nullable: true },
    committedAtMs: { name: 'committed_at_ms', type: 'bigint' },
  },
  indices: [{ name: 'limit_commits_committed_at', columns: ['committedAtMs'] }],
});
