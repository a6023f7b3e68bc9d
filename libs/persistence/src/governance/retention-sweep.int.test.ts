import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';
import { PgLimitStore } from './pg-limit-store.js';
import { sweepGovernanceRetention } from './retention-sweep.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 3, 1);
const CUTOFF = NOW - 90 * DAY;

describe.each(databaseTargets)('sweepGovernanceRetention on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  const count = async (table: string): Promise<number> =>
    ((await db.dataSource.query(`SELECT count(*)::int AS n FROM "${table}"`)) as { n: number }[])[0]?.n ?? 0;

  it('deletes audit records, ledger rows, charges, commits, tickets and empty buckets past the cutoff', async () => {
    const insertAudit = (createdAtMs: number) =>
      db.dataSource.query(
        `INSERT INTO audit_records (id, "timestamp", tool_name, policy_decision, created_at)
         VALUES ($1, now(), 't', 'allow', to_timestamp($2::bigint / 1000.0))`,
        [randomUUID(), createdAtMs],
      );
    for (let i = 0; i < 5; i++) await insertAudit(CUTOFF - DAY - i);
    await insertAudit(CUTOFF + DAY);

    const limits = new PgLimitStore(db.dataSource);
    const pot = {
      family: 'budget' as const,
      key: 'budget:payments:global',
      epoch: 1,
      amount: 1_000_000n,
      limit: 100_000_000n,
      window: { type: 'session' as const, idleTtlMs: 400 * DAY },
      onBreach: 'refuse' as const,
      senderScoped: false,
    };
    const charge = { ...pot, ledger: { budgetName: 'payments', kind: 'spend' as const, currency: 'USD' } };
    const context = { auditRecordId: randomUUID(), toolName: 'pay', origin: 'sdk' };
    const old = { ...pot, key: 'budget:old:global' };
    for (const [id, at, check] of [
      ['old', CUTOFF - DAY, old],
      ['new', NOW, pot],
    ] as const) {
      await limits.reserve(
        { reservationId: id, checks: [check], expiresAtMs: at + 1_000, maxSenderKeys: 1 },
        at,
      );
      await limits.commit(id, [{ ...charge, key: check.key }], context, at);
    }
    const tickets = new PgApprovalTicketStore(db.dataSource);
    const ticket = {
      channelName: 'native:sdk',
      toolName: 'pay',
      toolInput: {},
      matchedRule: null,
      ruleIndex: null,
      sessionId: null,
      evaluationId: undefined,
      timeoutMs: 1_000,
      breachedBudgets: undefined,
    };
    await tickets.create({
      ...ticket,
      id: 'old-decided',
      requestedAtMs: CUTOFF - DAY,
      timeoutAtMs: NOW,
      status: 'approved',
    });
    await tickets.create({
      ...ticket,
      id: 'old-pending',
      requestedAtMs: CUTOFF - DAY,
      timeoutAtMs: NOW,
      status: 'pending',
    });
    await tickets.create({
      ...ticket,
      id: 'new',
      requestedAtMs: NOW,
      timeoutAtMs: NOW + 1,
      status: 'approved',
    });

    const result = await sweepGovernanceRetention(db.dataSource, { cutoffMs: CUTOFF, batchSize: 2 });
    expect(result).toEqual({
      auditRecords: 5,
      budgetEvents: 1,
      limitCharges: 1,
      limitCommits: 1,
      limitBuckets: 1,
      approvalTickets: 1,
    });
    expect(await count('audit_records')).toBe(1);
    expect(await limits.ledger()).toMatchObject([{ budgetName: 'payments', timestampMs: NOW }]);
    expect((await limits.peek([pot], NOW))[0]?.used).toBe(1_000_000n);
    expect(await tickets.get('old-pending')).toBeDefined();
    expect(await tickets.get('old-decided')).toBeUndefined();
    // budget_meta is never swept, and outside the sweep the audit trail stays append-only.
    await expect(db.dataSource.query(`DELETE FROM audit_records`)).rejects.toThrow(/append-only/);
    expect(await sweepGovernanceRetention(db.dataSource, { cutoffMs: CUTOFF })).toMatchObject({
      auditRecords: 0,
    });
    // A retention of 99,999,999 days puts the cutoff before PostgreSQL's timestamps begin: nothing goes.
    const ancient = await sweepGovernanceRetention(db.dataSource, { cutoffMs: NOW - 99_999_999 * DAY });
    expect(Object.values(ancient)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await count('audit_records')).toBe(1);
  });
});
