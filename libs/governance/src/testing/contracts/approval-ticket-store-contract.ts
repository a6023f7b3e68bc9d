/** The ApprovalTicketStore contract: exact round trips, and resolution as a compare-and-set from pending. */
import { describe, expect, it } from 'vitest';
import { type ApprovalTicket, type ApprovalTicketStore } from '../../stores/approval-ticket-store.js';
import { subjectPerCase, unique, type ContractFactory } from './contract-subject.js';

/** A pending native ticket `id`; fields overridable. */
export const approvalTicket = (id: string, overrides: Partial<ApprovalTicket> = {}): ApprovalTicket => ({
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

/** The contract's cases, each run against the current case's store. */
const CASES: Readonly<Record<string, (store: () => ApprovalTicketStore) => Promise<void>>> = {
  'round-trips a ticket exactly, absent fields and breached budgets included': async (store) => {
    const plain = approvalTicket(unique('t'));
    const breached = approvalTicket(unique('t'), {
      evaluationId: undefined,
      matchedRule: null,
      ruleIndex: null,
      sessionId: null,
      breachedBudgets: [
        { name: 'payments', limit: 10, spent: 9.5, attempted_amount: 40, currency: 'USD', window: '1h' },
      ],
    });
    await store().create(plain);
    await store().create(breached);
    expect(await store().get(plain.id)).toStrictEqual(plain);
    expect(await store().get(breached.id)).toStrictEqual(breached);
    expect(await store().get(unique('missing'))).toBeUndefined();
  },
  'resolves by compare-and-set from pending; a second resolution gets undefined': async (store) => {
    const first = approvalTicket(unique('t'));
    await store().create(first);
    const approved = await store().resolve(first.id, {
      status: 'approved',
      resolvedAtMs: 2_000,
      resolvedBy: 'alice',
    });
    expect(approved).toStrictEqual({
      ...first,
      status: 'approved',
      resolvedAtMs: 2_000,
      resolvedBy: 'alice',
    });
    expect(
      await store().resolve(first.id, { status: 'denied', resolvedAtMs: 3_000, resolvedBy: 'bob' }),
    ).toBeUndefined();
    expect(await store().get(first.id)).toStrictEqual(approved);
    expect(await store().resolve(unique('missing'), { status: 'timeout', resolvedAtMs: 1 })).toBeUndefined();

    const denied = approvalTicket(unique('t'));
    await store().create(denied);
    const resolution = {
      status: 'denied',
      resolvedAtMs: 5,
      resolvedBy: 'bob',
      denialReason: 'too much',
    } as const;
    expect(await store().resolve(denied.id, resolution)).toStrictEqual({ ...denied, ...resolution });
    const timedOut = approvalTicket(unique('t'));
    await store().create(timedOut);
    // No resolver, no reason: neither field appears.
    expect(await store().resolve(timedOut.id, { status: 'timeout', resolvedAtMs: 7 })).toStrictEqual({
      ...timedOut,
      status: 'timeout',
      resolvedAtMs: 7,
    });
  },
  'lets exactly one of many concurrent resolvers win': async (store) => {
    const contested = approvalTicket(unique('t'));
    await store().create(contested);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store().resolve(contested.id, {
          status: i % 3 === 0 ? 'denied' : 'approved',
          resolvedAtMs: 10 + i,
          resolvedBy: `resolver-${i}`,
        }),
      ),
    );
    const winners = results.filter((result) => result !== undefined);
    expect(winners).toHaveLength(1);
    expect(await store().get(contested.id)).toStrictEqual(winners[0]);
  },
};

export function describeApprovalTicketStoreContract(
  name: string,
  makeStore: ContractFactory<ApprovalTicketStore>,
): void {
  describe(`${name}: ApprovalTicketStore contract`, () => {
    const subject = subjectPerCase(makeStore);
    for (const [title, run] of Object.entries(CASES)) it(title, () => run(() => subject().store));
  });
}
