/**
 * The PostgreSQL limit store against the LimitStore reference model (`@helios/governance/testing`):
 * random interleavings of reserve / commit / release / peek / expiry compared answer by answer, and the
 * admission properties under concurrency. A database of its own (this file's): the sender-key capacity
 * both exercise counts every live sender bucket in the store, so no other suite may share it. After
 * both, every bucket's running sums must still equal the rows they stand for.
 */
import { describeLimitStoreConcurrency, describeLimitStoreModel } from '@helios/governance/testing';
import { describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgLimitStore } from './pg-limit-store.js';

describe.each(databaseTargets)(
  'PgLimitStore and the limit model on the %s database',
  (target, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);
    const store = () => Promise.resolve({ store: new PgLimitStore(db.dataSource) });

    describeLimitStoreModel(`PgLimitStore (${target})`, store, {
      numRuns: 40,
    });

    describeLimitStoreConcurrency(`PgLimitStore (${target})`, store, { numRuns: 15 });

    it('keeps the running sums of every bucket equal to its charge and hold rows', async () => {
      const drifted: unknown[] = await db.dataSource.query(`
        SELECT b.*, (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id") AS rows_c, (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id") AS rows_h, "helios_limit_live_until"(b) AS lu FROM "limit_buckets" b
        WHERE b."charged" <> coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"), 0)
           OR b."charge_count" <> (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
           OR b."held" <> coalesce((SELECT sum(h."amount") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"), 0)
           OR b."hold_count" <> (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")
           OR b."oldest_ms" IS DISTINCT FROM (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
           OR (b."hold_count" > 0 AND (b."hold_expiry_ms" IS NULL OR b."hold_expiry_ms" >
                 (SELECT min(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")))
           OR (b."sender_scoped" AND b."live_until_ms" <> "helios_limit_live_until"(b))`);
      const [{ buckets }] = (await db.dataSource.query(
        `SELECT count(*)::int AS buckets FROM "limit_buckets"`,
      )) as [{ buckets: number }];
      expect(buckets).toBeGreaterThan(100);
      expect(drifted).toEqual([]);
    });
  },
);
