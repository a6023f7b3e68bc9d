/**
 * Zero durations at run time, each with the reference's meaning (config/zero-durations.ts says where
 * in its code each comes from). Each case runs a zero and a non-zero twin side by side, so the zero's
 * meaning is what differs.
 */
import { describe, expect, it } from 'vitest';
import { decidedBody, harness, type Harness } from '../testing/service-harness.js';
import { type EvaluateDecisionBody } from '../wire/wire-types.js';

const LIMITS = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: ping-zero, match: { tool: ping0 }, action: rate_limit, limits: { max_calls: 1, window: 0s } }
    - { name: ping-hour, match: { tool: ping1 }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - name: pay-zero
      match: { tool: pay0 }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 10, currency: EUR, window: 0s } }
    - name: pay-hour
      match: { tool: pay1 }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 10, currency: EUR, window: 1h } }
budgets:
  - { name: per-call, limit: 10, currency: EUR, window: 0s, contributors: [ { match: { tool: buy0 }, field: amount } ] }
  - { name: hourly, limit: 10, currency: EUR, window: 1h, contributors: [ { match: { tool: buy1 }, field: amount } ] }
  - name: sess-zero
    limit: 10
    currency: EUR
    window: session
    key: session
    idle_ttl: 0s
    contributors: [ { match: { tool: tip0 }, field: amount } ]
  - name: sess-hour
    limit: 10
    currency: EUR
    window: session
    key: session
    idle_ttl: 1h
    contributors: [ { match: { tool: tip1 }, field: amount } ]
`;

async function call(h: Harness, tool: string, amount?: number): Promise<EvaluateDecisionBody> {
  const args = amount === undefined ? {} : { amount };
  return decidedBody(await h.service.evaluate({ tool: { name: tool }, arguments: args, session_id: 's1' }));
}

/** Evaluates and, when the call may run, audits it as run: the spend is charged. */
async function ran(h: Harness, tool: string, amount?: number): Promise<string> {
  const decided = await call(h, tool, amount);
  if (decided.decision === 'allow') {
    const audited = await h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
    expect(audited.type).toBe('Finalized');
  }
  return decided.decision;
}

describe('a zero window on a rule limit', () => {
  it('rate: the rule is not rate limited (no bucket, no limits.rate block), as in the reference', async () => {
    const h = await harness(LIMITS);
    const first = await call(h, 'ping0');
    expect(first).toEqual({
      evaluation_id: first.evaluation_id,
      decision: 'allow',
      reason: 'Matched "ping-zero" → rate_limit',
      matched_rule: 'ping-zero',
      matched_rule_index: 0,
    });
    // Audited or still pending, earlier calls never count.
    expect(await ran(h, 'ping0')).toBe('allow');
    expect(await ran(h, 'ping0')).toBe('allow');
    expect(await ran(h, 'ping1')).toBe('allow');
    expect(await ran(h, 'ping1')).toBe('rate_limited');
  });

  it('spend: nothing accumulates, each call is judged on its own amount', async () => {
    const h = await harness(LIMITS);
    for (let i = 0; i < 3; i += 1) expect(await ran(h, 'pay0', 10)).toBe('allow');
    const over = await call(h, 'pay0', 10.5);
    expect(over.decision).toBe('spend_limited');
    expect(over.limits?.spend).toMatchObject({ current_spend: 0, limit: 10, window_ms: 0 });
    expect(await ran(h, 'pay1', 10)).toBe('allow');
    expect(await ran(h, 'pay1', 1)).toBe('spend_limited');
  });

  it('spend: a call evaluated and not yet audited still holds its amount (Helios holds, as for any window)', async () => {
    const h = await harness(LIMITS);
    const pending = await call(h, 'pay0', 6);
    expect((await call(h, 'pay0', 6)).decision).toBe('spend_limited');
    await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' });
    expect((await call(h, 'pay0', 6)).decision).toBe('allow');
  });
});

describe('a zero budget window or idle_ttl', () => {
  it('window 0s: nothing accumulates in the pot, each call is judged on its own amount', async () => {
    const h = await harness(LIMITS);
    for (let i = 0; i < 3; i += 1) expect(await ran(h, 'buy0', 10)).toBe('allow');
    const over = await call(h, 'buy0', 11);
    expect(over.decision).toBe('budget_exceeded');
    expect(over.limits?.budgets?.[0]).toMatchObject({ name: 'per-call', spent: 0, window: '0s' });
    expect(await ran(h, 'buy1', 10)).toBe('allow');
    expect(await ran(h, 'buy1', 1)).toBe('budget_exceeded');
  });

  it('idle_ttl 0s: a session pot with nothing pending starts over once time moves', async () => {
    const h = await harness(LIMITS);
    expect(await ran(h, 'tip0', 10)).toBe('allow');
    expect(await ran(h, 'tip1', 10)).toBe('allow');
    h.clock.advance(1);
    expect(await ran(h, 'tip0', 10)).toBe('allow');
    expect(await ran(h, 'tip1', 1)).toBe('budget_exceeded');
  });
});

const APPROVALS = (global: string, rule: string, budget: string): string => `
version: '1'
sdk: { enabled: true }
approval: { timeout: ${global} }
policies:
  rules:
    - { name: plain, match: { tool: plain }, action: require_approval }
    - { name: own, match: { tool: own }, action: require_approval, approval: { channel: dashboard, timeout: ${rule} } }
budgets:
  - name: glass
    limit: 1
    currency: EUR
    window: 1h
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: ${budget} }
    contributors: [ { match: { tool: splurge }, field: amount } ]
`;

/** Asks for the ticket's approval, then audits the call as run; returns both answers and the record. */
async function approveAndRun(h: Harness, tool: string, amount?: number) {
  const decided = await call(h, tool, amount);
  expect(decided.decision).toBe('require_approval');
  const ticket = decided.approval?.id ?? '';
  const resolved = await h.service.resolveApproval(ticket, { resolution: 'approved', resolved_by: 'ops' });
  const audited = await h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
  const id = audited.type === 'Finalized' ? audited.body.audit_record_id : '';
  return { timeoutMs: decided.approval?.timeout_ms, resolved, record: h.audit.find(id) };
}

describe('a zero approval timeout', () => {
  it.each([
    ['approval.timeout (a rule without its own)', 'plain', undefined],
    ["a rule's approval.timeout", 'own', undefined],
    ["a budget's approval.timeout (break-glass)", 'splurge', 5],
  ] as const)(
    '%s: the ticket times out at once; the call is audited approval_timeout',
    async (_, tool, amount) => {
      const h = await harness(APPROVALS('0s', '0s', '0s'));
      const { timeoutMs, resolved, record } = await approveAndRun(h, tool, amount);
      expect(timeoutMs).toBe(0);
      expect(resolved).toEqual({ type: 'Error', body: { error: 'already_resolved', status: 'timeout' } });
      expect(record).toMatchObject({ approvalStatus: 'timeout', blockReason: 'approval_timeout' });
    },
  );

  it('a non-zero twin is approved and runs', async () => {
    const h = await harness(APPROVALS('5m', '5m', '5m'));
    for (const [tool, amount] of [['plain'], ['own'], ['splurge', 5]] as const) {
      const { timeoutMs, resolved, record } = await approveAndRun(h, tool, amount);
      expect(timeoutMs).toBe(300_000);
      expect(resolved).toEqual({ type: 'Resolved', body: { ok: true } });
      expect(record).toMatchObject({ approvalStatus: 'approved', blockReason: null });
    }
  });
});

const TTL = (ttl: string): string => `
version: '1'
sdk: { enabled: true, evaluation_ttl: ${ttl} }
policies:
  rules:
    - { name: once, match: { tool: once }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - { name: ask, match: { tool: ask }, action: require_approval, approval: { channel: dashboard, timeout: 5m } }
`;

describe('sdk.evaluation_ttl: 0s', () => {
  it('every call that waits for /audit expires at once: 404 evaluation_expired, an expiry record, nothing charged', async () => {
    const h = await harness(TTL('0s'));
    for (let i = 0; i < 3; i += 1) {
      const decided = await call(h, 'once');
      expect(decided.decision).toBe('allow');
      const audited = await h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
      expect(audited).toEqual({ type: 'Error', body: { error: 'evaluation_expired' } });
    }
    expect(h.audit.records.map((r) => r.record.recordKind)).toEqual([
      'evaluation_expired',
      'evaluation_expired',
      'evaluation_expired',
    ]);
    const asked = await call(h, 'ask');
    expect(
      await h.service.resolveApproval(asked.approval?.id ?? '', {
        resolution: 'approved',
        resolved_by: 'ops',
      }),
    ).toMatchObject({ type: 'Error', body: { error: 'already_resolved', status: 'timeout' } });
  });

  it('the sweep finds them due at once; a non-zero twin keeps its evaluation and charges it', async () => {
    const zero = await harness(TTL('0s'));
    await call(zero, 'once');
    expect(await zero.service.sweep()).toMatchObject({ expired: 1, failed: 0 });

    const twin = await harness(TTL('10m'));
    expect(await ran(twin, 'once')).toBe('allow');
    expect(await twin.service.sweep()).toMatchObject({ expired: 0 });
    expect(await ran(twin, 'once')).toBe('rate_limited');
  });
});
