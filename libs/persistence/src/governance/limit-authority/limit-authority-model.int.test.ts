/**
 * The PostgreSQL limit store with a local limit authority against the LimitStore reference model
 * (`@helios/governance/testing`): the same random interleavings of reserve / commit / release / peek /
 * expiry as the shared path's suite, decided in memory on buckets the authority claims, and the
 * admission properties under concurrency. A database of its own (the sender-key capacity counts every
 * live sender bucket). Each case closes its authority, handing the buckets back; afterwards every
 * bucket's running sums must equal the rows they stand for.
 */
import { describeLimitStoreConcurrency, describeLimitStoreModel } from '@helios/governance/testing';
import { describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../../test/support/pg-databases.js';
import { PgLimitStore } from '../pg-limit-store.js';
import { LimitAuthority } from './limit-authority.js';

describe.each(databaseTargets)(
  'PgLimitStore with a local authority and the limit model on the %s database',
  (target, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);
    const store = async () => {
      const authority = await LimitAuthority.start(db.dataSource, { sweepIntervalMs: 60_000 });
      return { store: new PgLimitStore(db.dataSource, { authority }), cleanup: () => authority.close() };
    };

    describeLimitStoreModel(`PgLimitStore with a local authority (${target})`, store, {
      numRuns: Number(process.env.MODEL_RUNS ?? 40),
    });

    describeLimitStoreConcurrency(`PgLimitStore with a local authority (${target})`, store, { numRuns: 15 });

    it('keeps the running sums of every handed-back bucket equal to its charge and hold rows', async () => {
      const drifted: unknown[] = await db.dataSource.query(`
        SELECT b."bucket_id" FROM "limit_buckets" b
        WHERE b."owner" IS NOT NULL
           OR b."charged" <> coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"), 0)
           OR b."charge_count" <> (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
           OR b."held" <> coalesce((SELECT sum(h."amount") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"), 0)
           OR b."hold_count" <> (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")
           OR b."oldest_ms" IS DISTINCT FROM (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
           OR (b."sender_scoped" AND b."live_until_ms" <> "helios_limit_live_until"(b))
           OR EXISTS (SELECT 1 FROM "limit_charge_runs" r WHERE r."bucket_id" = b."bucket_id")
           OR EXISTS (SELECT 1 FROM "limit_charge_journal" j WHERE b."bucket_id" = ANY(j."bucket_ids"))
           OR b."ledger_mark" IS NOT NULL`);
      const [{ buckets }] = (await db.dataSource.query(
        `SELECT count(*)::int AS buckets FROM "limit_buckets"`,
      )) as [{ buckets: number }];
      expect(buckets).toBeGreaterThan(100);
      expect(drifted).toEqual([]);
    });
  },
);
