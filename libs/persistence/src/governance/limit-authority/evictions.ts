/**
 * Getting buckets back from other owners: a dead owner's (its key can be seized) are rebuilt on the
 * shared path (takeover.ts); a live owner is asked to hand back the buckets wanted. One eviction per
 * owner at a time; callers asking meanwhile share it.
 */
import { type DataSource } from 'typeorm';
import { runOnPool } from '../sql.js';
import { OWNERS } from './authority.sql.js';
import { type Lease } from './lease.js';
import { takeOver } from './takeover.js';

export class Evictions {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly owner: string,
    private readonly lease: () => Lease | undefined,
  ) {}

  async evict(owner: string, buckets: readonly string[], nowMs: number): Promise<void> {
    const lease = this.lease();
    if (lease === undefined || !lease.alive || owner === '' || owner === this.owner) return;
    const running = this.running.get(owner);
    if (running !== undefined) return running;
    const work = (async () => {
      if (await lease.seize(owner)) await takeOver(this.dataSource, owner, nowMs);
      else if (buckets.length > 0) await lease.ask(owner, buckets);
    })();
    this.running.set(owner, work);
    try {
      await work;
    } finally {
      this.running.delete(owner);
    }
  }

  /** Every other owner that is gone has its buckets taken over (live ones are left alone). */
  async recoverDeadOwners(nowMs: number): Promise<void> {
    const { rows } = await runOnPool<{ owner: string }>(this.dataSource, OWNERS, [this.owner]);
    for (const { owner } of rows) await this.evict(owner, [], nowMs);
  }
}
