import { type ApprovalTicket } from '@helios/governance';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';

const ticket = (id: string, overrides: Partial<ApprovalTicket> = {}): ApprovalTicket => ({
  id,
  evaluationId: `eval-${id}`,
  channelName: 'native:sdk',
  toolName: 'pay',
  toolInput: { amount: 40 },
  matchedRule: 'pay',
  ruleIndex: 2,
  sessionId: 's1',
  requestedAtMs: 1_000,
  timeoutAtMs: 301_000,
  timeoutMs: 300_000,
  status: 'pending',
  breachedBudgets: undefined,
  ...overrides,
});

describe.each(databaseTargets)('PgApprovalTicketStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgApprovalTicketStore;

  beforeAll(() => {
    store = new PgApprovalTicketStore(db.dataSource);
  });

  it('round-trips a ticket exactly as the in-memory store keeps it', async () => {
    const breached = ticket('t1', {
      evaluationId: undefined,
      matchedRule: null,
      ruleIndex: null,
      sessionId: null,
      breachedBudgets: [
        { name: 'payments', limit: 10, spent: 9.5, attempted_amount: 40, currency: 'USD', window: '1h' },
      ],
    });
    await store.create(breached);
    expect(await store.get('t1')).toStrictEqual(breached);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('resolves by compare-and-set from pending; a second resolution gets undefined', async () => {
    await store.create(ticket('t2'));
    const approved = await store.resolve('t2', {
      status: 'approved',
      resolvedAtMs: 2_000,
      resolvedBy: 'alice',
    });
    expect(approved).toStrictEqual({
      ...ticket('t2'),
      status: 'approved',
      resolvedAtMs: 2_000,
      resolvedBy: 'alice',
    });
    expect(
      await store.resolve('t2', { status: 'denied', resolvedAtMs: 3_000, resolvedBy: 'bob' }),
    ).toBeUndefined();
    expect(await store.get('t2')).toStrictEqual(approved);
    expect(await store.resolve('missing', { status: 'timeout', resolvedAtMs: 1 })).toBeUndefined();

    await store.create(ticket('t3'));
    expect(
      await store.resolve('t3', {
        status: 'denied',
        resolvedAtMs: 5,
        resolvedBy: 'bob',
        denialReason: 'too much',
      }),
    ).toMatchObject({ status: 'denied', resolvedBy: 'bob', denialReason: 'too much' });
  });

  it('lets exactly one of many concurrent resolvers win, across two pools', async () => {
    await store.create(ticket('t4'));
    const other = new PgApprovalTicketStore(await db.open(5));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? store : other).resolve('t4', {
          status: i % 3 === 0 ? 'denied' : 'approved',
          resolvedAtMs: 10 + i,
          resolvedBy: `resolver-${i}`,
        }),
      ),
    );
    const winners = results.filter((r) => r !== undefined);
    expect(winners).toHaveLength(1);
    expect(await store.get('t4')).toStrictEqual(winners[0]);
  });
});
