/**
 * Migration OwnedBudgetLedger1765756800000 down and up again while a process owns a budget pot whose
 * charge is only a ledger row: down turns the charge into a charge run (what the previous functions
 * read), up restores the same schema and functions, and the pot's charge is counted exactly once when
 * the owner hands it back afterwards.
 */
import { type CommitCharge } from '@helios/governance';
import { OwnedBudgetLedger1765756800000, OwnerChargeJournal1765843200000 } from '@helios/migrations';
import { type DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { catalogFacts } from '../../../test/support/schema-catalog.js';
import { databaseTargets, sharedDatabase } from '../../../test/support/pg-databases.js';
import { PgLimitStore } from '../pg-limit-store.js';
import { LimitAuthority } from './limit-authority.js';
import { inTransaction } from '../sql.js';

const TABLES = ['budget_events', 'limit_buckets', 'limit_charge_runs', 'limit_charges'];
const BUCKET = 'budget|1|budget:mig:global';

const pot: CommitCharge = {
  family: 'budget',
  key: 'budget:mig:global',
  epoch: 1,
  amount: 7n,
  limit: 100n,
  window: { type: 'sliding', ms: 3_600_000 },
  onBreach: 'refuse',
  senderScoped: false,
  ledger: { budgetName: 'mig', kind: 'spend', currency: 'USD' },
};

/** The limit functions' and the charge view's definitions. */
async function definitions(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(`
    SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p
    WHERE p.proname LIKE 'helios\\_limit\\_%' ORDER BY p.proname
  `)) as { d: string }[];
  const [view] = (await dataSource.query(`SELECT pg_get_viewdef('limit_charge_entries') AS d`)) as {
    d: string;
  }[];
  return [...rows.map((row) => row.d), view?.d ?? ''];
}

describe.each(databaseTargets)(
  'migration OwnedBudgetLedger1765756800000 on the %s database',
  (_name, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);

    it('goes down and up again while an owned pot holds a charge, which is then counted once', async () => {
      const authority = await LimitAuthority.start(db.dataSource, { sweepIntervalMs: 60_000 });
      const store = new PgLimitStore(db.dataSource, { authority });
      const nowMs = Date.UTC(2026, 5, 1);
      const request = {
        reservationId: 'mig-r1',
        checks: [pot],
        expiresAtMs: nowMs + 60_000,
        maxSenderKeys: 10,
      };
      expect((await store.reserve(request, nowMs)).type).toBe('reserved');
      const context = { auditRecordId: 'mig-rec-1', toolName: 'pay', origin: 'sdk' };
      await store.commit('mig-r1', [pot], context, nowMs);
      const runs = `SELECT "reservation_ids", "amounts"::text[] AS "amounts" FROM "limit_charge_runs" WHERE "bucket_id" = $1`;
      expect(await db.dataSource.query(runs, [BUCKET])).toEqual([]);
      const factsBefore = await catalogFacts(db.dataSource, TABLES);
      const definitionsBefore = await definitions(db.dataSource);

      // The later migration goes down first and up last, as a revert and a re-run would take them.
      const later = new OwnerChargeJournal1765843200000();
      const migration = new OwnedBudgetLedger1765756800000();
      await inTransaction(db.dataSource, (runner) => later.down(runner));
      await inTransaction(db.dataSource, (runner) => migration.down(runner));
      expect(await db.dataSource.query(runs, [BUCKET])).toEqual([
        { reservation_ids: ['mig-r1'], amounts: ['7'] },
      ]);
      await inTransaction(db.dataSource, (runner) => migration.up(runner));
      await inTransaction(db.dataSource, (runner) => later.up(runner));
      expect(await catalogFacts(db.dataSource, TABLES)).toEqual(factsBefore);
      expect(await definitions(db.dataSource)).toEqual(definitionsBefore);

      // The pot is still owned, its charge a run now: handed back, it is one charge row.
      await authority.close();
      const [bucket] = (await db.dataSource.query(
        `SELECT "owner", "charged"::text AS "charged", "ledger_mark" FROM "limit_buckets" WHERE "bucket_id" = $1`,
        [BUCKET],
      )) as unknown[];
      expect(bucket).toEqual({ owner: null, charged: '7', ledger_mark: null });
    });
  },
);
