import { describe, expect, it } from 'vitest';
import { decidedBody, harness } from '../testing/service-harness.js';
import { INVALID_AMOUNT_TEXT } from '../util/money.js';
import { type AuditRequest } from '../wire/wire-types.js';

const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - name: pay-spend
      match: { tool: pay }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 1.5e20, currency: USD, window: 1h } }
budgets:
  - name: pot
    limit: 1e25
    currency: USD
    window: 1h
    contributors: [ { match: { tool: charge }, field: cost } ]
`;

const INVALID_ACTUAL_AMOUNT = {
  type: 'Error',
  body: { error: 'invalid_actual_amount', issues: [{ path: 'actual_amount', message: INVALID_AMOUNT_TEXT }] },
};

describe('money of any size', () => {
  it('a spend limit counts an actual_amount of 1e20 exactly and refuses what would pass its limit', async () => {
    const h = await harness(POLICY);
    const pay = decidedBody(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 1 } }));
    expect(pay.decision).toBe('allow');
    expect(
      await h.service.audit({ evaluation_id: pay.evaluation_id, status: 'success', actual_amount: 1e20 }),
    ).toMatchObject({ type: 'Finalized' });
    expect(h.audit.records.at(-1)?.record.evidenceChain).toMatchObject({
      spend_limit: { allowed: true, current_spend: 1e20, limit: 1.5e20 },
    });
    // Reaching the limit exactly is allowed; the window holds 1e20 (1e26 micro-units, far past 2^63).
    const exact = decidedBody(
      await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 5e19 } }),
    );
    expect(exact).toMatchObject({
      decision: 'allow',
      limits: { spend: { current_spend: 1.5e20, limit: 1.5e20 } },
    });
    await h.service.audit({ evaluation_id: exact.evaluation_id, status: 'not_executed' });
    const over = decidedBody(
      await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 1e20 } }),
    );
    expect(over).toMatchObject({ decision: 'spend_limited', limits: { spend: { current_spend: 1e20 } } });
    // The next double above 5e19 (50000000000000010000) would pass the limit: refused.
    const next = decidedBody(
      await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 5e19 + 8192 } }),
    );
    expect(next.decision).toBe('spend_limited');
    expect(exact.decision).toBe('allow');
  });

  it('a budget of 1e25 counts contributions of 1e20 exactly in its ledger', async () => {
    const h = await harness(POLICY);
    const charge = decidedBody(
      await h.service.evaluate({ tool: { name: 'charge' }, arguments: { cost: 1e20 } }),
    );
    expect(charge).toMatchObject({
      decision: 'allow',
      limits: { budgets: [{ name: 'pot', limit: 1e25, spent: 0, attempted_amount: 1e20, allowed: true }] },
    });
    await h.service.audit({ evaluation_id: charge.evaluation_id, status: 'success' });
    expect(h.limits.ledger().map((row) => row.amount)).toEqual([10n ** 26n]);
    const huge = decidedBody(
      await h.service.evaluate({ tool: { name: 'charge' }, arguments: { cost: Number.MAX_VALUE } }),
    );
    expect(huge).toMatchObject({
      decision: 'budget_exceeded',
      limits: { budgets: [{ spent: 1e20, remaining: 1e25 - 1e20, attempted_amount: Number.MAX_VALUE }] },
    });
    expect(huge.limits?.budgets?.[0]).not.toHaveProperty('reason');
  });

  it('refuses every invalid amount on every path; /audit names every invalid case in the one text', async () => {
    const h = await harness(POLICY);
    for (const amount of [-1, 'x', null, undefined, '1e20']) {
      const pay = decidedBody(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount } }));
      expect(pay, String(amount)).toMatchObject({
        decision: 'spend_limited',
        limits: { spend: { reason: 'invalid_amount' } },
      });
      const charge = decidedBody(
        await h.service.evaluate({ tool: { name: 'charge' }, arguments: { cost: amount } }),
      );
      expect(charge, String(amount)).toMatchObject({
        decision: 'budget_exceeded',
        limits: { budgets: [{ name: 'pot', reason: 'invalid_amount', attempted_amount: null }] },
      });
    }
    const pay = decidedBody(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 1 } }));
    // In-process callers can pass what JSON cannot carry.
    for (const actual of [-1, Number.NaN, Infinity, -Infinity, '10', 10n, null]) {
      const request = { evaluation_id: pay.evaluation_id, status: 'success', actual_amount: actual };
      expect(await h.service.audit(request as unknown as AuditRequest), String(actual)).toEqual(
        INVALID_ACTUAL_AMOUNT,
      );
    }
  });
});
