/**
 * The PendingEvaluationStore contract: admission under both backlog caps, exact round trips, one
 * finalization per id, tombstones for one TTL, and due entries oldest first. Each case starts from an
 * empty backlog (the factory's job for a store over shared data) and uses ids of its own.
 */
import { describe, expect, it } from 'vitest';
import { bucketIdOf } from '../../stores/limit-arithmetic.js';
import {
  type PendingEvaluation,
  type PendingEvaluationStore,
  type Tombstone,
} from '../../stores/pending-evaluation-store.js';
import { subjectPerCase, unique, type ContractFactory } from './contract-subject.js';

/** A pending store that reports its backlog, as both implementations do for health and tests. */
export type BacklogReportingStore = PendingEvaluationStore & {
  backlog():
    | { readonly count: number; readonly bytes: number }
    | Promise<{ readonly count: number; readonly bytes: number }>;
};

/** A complete pending evaluation for `evaluationId` (every field set); fields overridable. */
export const pendingEntry = (
  evaluationId: string,
  overrides: Partial<PendingEvaluation> = {},
): PendingEvaluation => ({
  evaluationId,
  auditRecordId: `audit-${evaluationId}`,
  origin: 'sdk',
  agentId: null,
  sessionId: 's1',
  toolName: 'pay',
  toolInputJson: JSON.stringify({ amount: 12.5, nested: { list: [1, 'two', null] } }),
  metadataJson: JSON.stringify({ sender_id: 'U7' }),
  action: 'allow',
  matchedRuleName: 'pay',
  matchedRuleIndex: 0,
  flaggedDestructive: false,
  reservationId: undefined,
  charges: [],
  budgetsAtEvaluate: undefined,
  approvalTicketId: undefined,
  timestampIso: '2026-01-01T00:00:00.000Z',
  createdAtMs: 1_000,
  expiresAtMs: 601_000,
  bytes: 100,
  ...overrides,
});

/** A tombstone for `evaluationId`, finalized by audit; fields overridable. */
export const tombstone = (evaluationId: string, overrides: Partial<Tombstone> = {}): Tombstone => ({
  evaluationId,
  auditRecordId: `audit-${evaluationId}`,
  finalizedBy: 'audit',
  payloadHash: 'h1',
  expiresAtMs: 5_000,
  ...overrides,
});

/** An entry with every optional part filled: charges past 2^63, budgets, a ticket and a reservation. */
function fullEntry(evaluationId: string): PendingEvaluation {
  return pendingEntry(evaluationId, {
    reservationId: evaluationId,
    approvalTicketId: 't-1',
    budgetsAtEvaluate: [
      {
        name: 'payments',
        limit: 10,
        spent: 1.5,
        remaining: 8.5,
        attempted_amount: 12.5,
        currency: 'USD',
        window: '1h',
        on_exceed: 'require_approval',
        allowed: false,
        reset_at_ms: 3_601_000,
      },
    ],
    // Each with its bucket id, as the service plans them (a store may derive it again when reading).
    charges: [
      {
        id: bucketIdOf('budget', 3, 'budget:payments:global'),
        family: 'budget',
        key: 'budget:payments:global',
        epoch: 3,
        amount: 10n ** 26n, // 1e20 units: past a bigint column
        limit: 10n ** 31n + 1n, // 1e25 units and one micro-unit: must not pass through a double either
        window: { type: 'sliding', ms: 3_600_000 },
        onBreach: 'hold',
        senderScoped: false,
        role: 'budget',
        budgetName: 'payments',
        currency: 'USD',
        breached: true,
      },
      {
        id: bucketIdOf('rate', 0, 'tool:pay:rule:0'),
        family: 'rate',
        key: 'tool:pay:rule:0',
        epoch: 0,
        amount: 1n,
        limit: 5n,
        window: { type: 'session', idleTtlMs: 86_400_000 },
        onBreach: 'refuse',
        senderScoped: false,
        role: 'rate',
        budgetName: undefined,
        currency: undefined,
        breached: false,
      },
    ],
  });
}

const caps = { maxCount: 3, maxBytes: 1_000 };
const wide = { maxCount: 100, maxBytes: 1_000_000 };

/** The contract's cases, each run against the current case's store. */
const CASES: Readonly<Record<string, (store: () => BacklogReportingStore) => Promise<void>>> = {
  'round-trips an entry, bigint charges and undefined fields included': async (store) => {
    const id = unique('e-full');
    const full = fullEntry(id);
    expect(await store().admit(full, caps)).toBe(true);
    expect(await store().get(id)).toStrictEqual(full);
    expect(await store().get(unique('nope'))).toBeUndefined();
    const latch = { payloadHash: 'abc', evidenceChain: { budgets: [{ kind: 'spend' }] } };
    await store().latchCommit(id, latch);
    expect((await store().get(id))?.commit).toEqual(latch);
    await store().latchCommit(unique('gone'), { payloadHash: 'x', evidenceChain: null });
  },
  'admits under both caps at n and refuses at n + 1, by count and by bytes': async (store) => {
    const [c1, c2, c3] = [unique('c'), unique('c'), unique('c')];
    expect(await store().hasRoom(100, caps)).toBe(true);
    for (const id of [c1, c2, c3]) expect(await store().admit(pendingEntry(id), caps)).toBe(true);
    expect(await store().hasRoom(1, caps)).toBe(false);
    expect(await store().admit(pendingEntry(unique('c')), caps)).toBe(false);
    expect(await store().backlog()).toEqual({ count: 3, bytes: 300 });
    expect(await store().finalize(tombstone(c1))).toBe(true);
    expect(await store().finalize(tombstone(c2))).toBe(true);
    // Bytes: 100 pending + 900 = exactly the cap; one more byte is over it.
    expect(await store().hasRoom(900, caps)).toBe(true);
    expect(await store().hasRoom(901, caps)).toBe(false);
    const b1 = unique('b');
    expect(await store().admit(pendingEntry(b1, { bytes: 901 }), caps)).toBe(false);
    expect(await store().admit(pendingEntry(b1, { bytes: 900 }), caps)).toBe(true);
    expect(await store().backlog()).toEqual({ count: 2, bytes: 1_000 });
  },
  'never over-admits under concurrent admissions for the last slots': async (store) => {
    const ten = { maxCount: 10, maxBytes: 1_000_000 };
    const admitted = await Promise.all(
      // A store may answer synchronously: every answer is made a promise to race them alike.
      Array.from({ length: 40 }, () => Promise.resolve(store().admit(pendingEntry(unique('race')), ten))),
    );
    expect(admitted.filter(Boolean)).toHaveLength(10);
    expect((await store().backlog()).count).toBe(10);
  },
  'finalizes once: the entry goes, its tombstone stays for one TTL, then is pruned': async (store) => {
    const f1 = unique('f');
    await store().admit(pendingEntry(f1), caps);
    const raced = await Promise.all([
      store().finalize(tombstone(f1)),
      store().finalize(tombstone(f1, { payloadHash: 'other' })),
    ]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await store().get(f1)).toBeUndefined();
    expect(await store().backlog()).toEqual({ count: 0, bytes: 0 });
    expect(await store().finalize(tombstone(f1))).toBe(false);
    const never = unique('never-admitted');
    expect(await store().finalize(tombstone(never))).toBe(false);
    expect(await store().tombstone(never, 0)).toBeUndefined();

    expect(await store().tombstone(f1, 4_999)).toMatchObject({ evaluationId: f1, finalizedBy: 'audit' });
    expect(await store().tombstone(f1, 5_000)).toBeUndefined();
    await store().pruneTombstones(4_999);
    expect(await store().tombstone(f1, 0)).toBeDefined();
    await store().pruneTombstones(5_000);
    expect(await store().tombstone(f1, 0)).toBeUndefined();
  },
  'remembers terminal decisions (and a later remember replaces the tombstone)': async (store) => {
    const r1 = unique('r');
    await store().remember(tombstone(r1, { finalizedBy: 'evaluate', payloadHash: null }));
    expect(await store().tombstone(r1, 0)).toEqual({
      evaluationId: r1,
      auditRecordId: `audit-${r1}`,
      finalizedBy: 'evaluate',
      payloadHash: null,
      expiresAtMs: 5_000,
    });
    await store().remember(tombstone(r1, { finalizedBy: 'expired', payloadHash: null, expiresAtMs: 9_000 }));
    expect(await store().tombstone(r1, 6_000)).toMatchObject({ finalizedBy: 'expired' });
  },
  'looks up the tombstone and the pending entry of an id together': async (store) => {
    const [pending, finalized] = [unique('l'), unique('l')];
    await store().admit(pendingEntry(pending), wide);
    await store().admit(pendingEntry(finalized), wide);
    await store().finalize(tombstone(finalized));
    expect(await store().lookup(pending, 0)).toEqual({
      tombstone: undefined,
      pending: pendingEntry(pending),
    });
    expect(await store().lookup(finalized, 0)).toMatchObject({
      tombstone: { evaluationId: finalized, finalizedBy: 'audit', payloadHash: 'h1' },
      pending: undefined,
    });
    // A tombstone past its TTL is not there any more.
    expect(await store().lookup(finalized, 5_000)).toEqual({ tombstone: undefined, pending: undefined });
  },
  'returns due entries oldest first, at most `limit`, and only those past their TTL': async (store) => {
    const [late, first, second, third] = [unique('d-late'), unique('d-1'), unique('d-2'), unique('d-3')];
    await store().admit(pendingEntry(late, { expiresAtMs: 9_000 }), wide);
    await store().admit(pendingEntry(first, { expiresAtMs: 2_000 }), wide);
    await store().admit(pendingEntry(second, { expiresAtMs: 1_500 }), wide);
    await store().admit(pendingEntry(third, { expiresAtMs: 2_000 }), wide);
    const due = async (nowMs: number, limit: number) =>
      (await store().due(nowMs, limit)).map((entry) => entry.evaluationId);
    expect(await due(1_999, 10)).toEqual([second]);
    expect(await due(2_000, 10)).toEqual([first, second, third]);
    expect(await due(2_000, 2)).toEqual([first, second]);
    expect(await due(9_000, 10)).toEqual([late, first, second, third]);
  },
};

export function describePendingEvaluationStoreContract(
  name: string,
  makeStore: ContractFactory<BacklogReportingStore>,
): void {
  describe(`${name}: PendingEvaluationStore contract`, () => {
    const subject = subjectPerCase(makeStore);
    for (const [title, run] of Object.entries(CASES)) it(title, () => run(() => subject().store));
  });
}
