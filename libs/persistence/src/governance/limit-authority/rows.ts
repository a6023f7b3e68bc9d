/** Rows the local limit authority writes, as its SQL functions take them (JSON arrays). */

/** A charge row as `helios_limit_write_charges` takes it (amounts as text: micro-units may pass 2^53). */
export interface ChargeRow {
  readonly b: string;
  readonly r: string;
  readonly a: string;
  readonly t: number;
}

/** A `budget_events` row by column name. */
export interface LedgerRow {
  readonly budget_name: string;
  readonly epoch: number;
  readonly bucket_key: string;
  readonly kind: string;
  readonly amount: string;
  readonly currency: string;
  readonly tool_name: string;
  readonly origin: string;
  readonly audit_record_id: string;
  readonly timestamp_ms: number;
  /** The charge's reservation: an owned pot's ledger row is the charge's only row (ledgerNamesPot). */
  readonly reservation_id: string;
}

/** A hold row as `helios_limit_demote` takes it. */
export interface HoldRow {
  readonly r: string;
  readonly b: string;
  readonly a: string;
  readonly e: number;
}

/** A budget ledger row with the bucket it charged (a hand-back takes a bucket's rows). */
export interface BucketLedgerRow {
  readonly bucket: string;
  readonly row: LedgerRow;
}

/** A commit decided in memory, as a `limit_commits` latch (snapshots as the shared path stores them). */
export interface CommitRow {
  readonly r: string;
  readonly s: readonly {
    readonly used: string;
    readonly allowed: boolean;
    readonly resetAtMs: number | null;
  }[];
  readonly t: number;
}
