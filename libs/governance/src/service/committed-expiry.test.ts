/**
 * An evaluation whose charges were committed but whose /audit never recorded it (the process died, or
 * the record could not be written) expires into a record that says so, `committed: true`, with the
 * evidence chain of that commit — kept on an earlier latch, or rebuilt from the latch's inputs, charging
 * once.
 */
import { describe, expect, it } from 'vitest';
import { allowAllPolicy, decidedBody, harness, type Harness } from '../testing/service-harness.js';

const POT = allowAllPolicy(`
  - { name: pot, limit: 50, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: amount } ] }
`);

async function spend(h: Harness, tool: string, amount: number) {
  return decidedBody(await h.service.evaluate({ tool: { name: tool }, arguments: { amount } }));
}

describe('expiry of a committed evaluation', () => {
  const harnessOf = () => harness(POT);

  it('a committed-but-unrecorded evaluation expires carrying its committed chain', async () => {
    const h = await harnessOf();
    const pending = await spend(h, 'pay', 10);
    const entry = await h.pending.get(pending.evaluation_id);
    await h.limits.commit(
      entry?.reservationId ?? '',
      [],
      { auditRecordId: 'id-0002', toolName: 'pay', origin: 'sideband' },
      h.clock.now(),
    );
    await h.pending.latchCommit(pending.evaluation_id, { payloadHash: 'h', evidenceChain: { budgets: [] } });
    expect(await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_conflict' },
    });
    h.clock.advance(600_000);
    await h.service.sweep();
    expect(h.audit.records.at(-1)?.record.evidenceChain).toEqual({
      budgets: [],
      sideband: { unreported: true, committed: true },
    });
  });

  it('a commit latched with its inputs (no chain) expires with the chain rebuilt, charging once', async () => {
    const h = await harnessOf();
    const pending = await spend(h, 'pay', 10);
    // The first /audit latched its commit (payload hash and actual amount) and died before recording.
    await h.pending.latchCommit(pending.evaluation_id, { payloadHash: 'h', actualAmount: '7000000' });
    expect(await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_conflict' },
    });
    h.clock.advance(600_000);
    await h.service.sweep();
    const chain = h.audit.records.at(-1)?.record.evidenceChain as { budgets: { spent: number }[] };
    expect(chain).toMatchObject({ sideband: { unreported: true, committed: true } });
    expect(chain.budgets.map((budget) => budget.spent)).toEqual([7]);
    expect(h.limits.ledger().map((row) => row.amount)).toEqual([7_000_000n]);
  });
});
