/**
 * What the PostgreSQL ticket store adds to the ApprovalTicketStore contract (store-contracts.int.test.ts
 * runs that): one winner when resolvers in two pools (two API processes) race.
 */
import { approvalTicket } from '@helios/governance/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';

describe.each(databaseTargets)('PgApprovalTicketStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgApprovalTicketStore;

  beforeAll(() => {
    store = new PgApprovalTicketStore(db.dataSource);
  });

  it('lets exactly one of many concurrent resolvers win, across two pools', async () => {
    await store.create(approvalTicket('contested'));
    const other = new PgApprovalTicketStore(await db.open(5));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? store : other).resolve('contested', {
          status: i % 3 === 0 ? 'denied' : 'approved',
          resolvedAtMs: 10 + i,
          resolvedBy: `resolver-${i}`,
        }),
      ),
    );
    const winners = results.filter((r) => r !== undefined);
    expect(winners).toHaveLength(1);
    expect(await store.get('contested')).toStrictEqual(winners[0]);
  });
});
