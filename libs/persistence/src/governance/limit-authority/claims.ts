/**
 * Claims of limit buckets for one owner (`helios_limit_claim`), group-committed: claims waiting while
 * one runs go together in the next statement, each answered with its buckets' rows (and the live
 * sender-key count, wherever the statement took it).
 */
import { bucketId, type BucketCheck } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { distinctSorted } from '../limit-buckets.sql.js';
import { runOnPoolRetrying } from '../sql.js';
import { StatementBatcher } from '../statement-batcher.js';
import { CLAIM, claimParams, type ClaimRow } from './authority.sql.js';

interface ClaimRequest {
  readonly checks: readonly BucketCheck[];
  readonly nowMs: number;
}

export class Claims {
  private readonly batcher = new StatementBatcher((batch: readonly ClaimRequest[]) => this.claim(batch), {
    maxBatch: 256,
    maxInFlight: 1,
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly owner: string,
    private readonly cooldownMs: number,
  ) {}

  submit(checks: readonly BucketCheck[], nowMs: number): Promise<ClaimRow[]> {
    return this.batcher.submit({ checks, nowMs });
  }

  private async claim(batch: readonly ClaimRequest[]): Promise<ClaimRow[][]> {
    const checks = distinctSorted(batch.flatMap((request) => request.checks));
    const nowMs = Math.max(...batch.map((request) => request.nowMs));
    const { rows } = await runOnPoolRetrying<ClaimRow>(
      this.dataSource,
      CLAIM,
      claimParams(checks, this.owner, nowMs, this.cooldownMs),
    );
    return batch.map((request) => {
      const ids = new Set(request.checks.map(bucketId));
      return rows.filter((row) => ids.has(row.c_bucket) || row.c_live_others !== null);
    });
  }
}
