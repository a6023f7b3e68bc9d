import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../engine/load-policy.js';
import { planBudgets } from '../service/limit-planning.js';
import { allowAllPolicy } from '../testing/service-harness.js';
import { ledgerNamesPot } from './limit-arithmetic.js';
import { type CommitCharge } from './limit-store.js';

const POLICY = allowAllPolicy(`
  - { name: team-pot_1, limit: 5, currency: USD, window: 1h, key: global, contributors: [ { match: { tool: pay }, field: amount } ] }
  - { name: per-session, limit: 5, currency: USD, window: 1h, key: session, contributors: [ { match: { tool: pay }, field: amount } ] }
  - { name: per_sender, limit: 5, currency: USD, window: 1h, key: sender_id, contributors: [ { match: { tool: pay }, field: amount } ] }
`);

/** The commit charges a `pay` call feeds, as the service builds them. */
function plannedCharges(sessionId: string | undefined, senderId: string | undefined): CommitCharge[] {
  const policy = loadPolicy(POLICY, { env: {} }).policy;
  if (policy === undefined) throw new Error('the test policy does not compile');
  const call = { toolName: 'pay', args: { amount: 1 }, sessionId, senderId };
  return planBudgets(policy, call, new Map()).map(({ charge }) => ({
    ...charge,
    ledger: { budgetName: charge.budgetName ?? '', kind: 'spend', currency: 'USD' },
  }));
}

describe('ledgerNamesPot', () => {
  it("holds for every budget charge the service plans: its ledger row names the charge's pot", () => {
    const charges = [...plannedCharges('s:1:2', 'u:7'), ...plannedCharges(undefined, undefined)];
    expect(charges).toHaveLength(6);
    for (const charge of charges) expect(ledgerNamesPot(charge)).toBe(true);
  });

  it('fails for a charge the ledger cannot lead back to', () => {
    const [pot] = plannedCharges('s', 'u') as [CommitCharge];
    expect(ledgerNamesPot({ ...pot, ledger: undefined })).toBe(false);
    expect(ledgerNamesPot({ ...pot, family: 'rate' })).toBe(false);
    expect(ledgerNamesPot({ ...pot, ledger: { ...pot.ledger!, budgetName: 'team' } })).toBe(false);
    // A name with ':' would be read back as a shorter one.
    const colon = { budgetName: 'team:pot', kind: 'spend', currency: 'USD' } as const;
    expect(ledgerNamesPot({ ...pot, key: 'budget:team:pot:global', ledger: colon })).toBe(false);
  });
});
