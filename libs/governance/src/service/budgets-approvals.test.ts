import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../testing/service-harness.js';
import { type EvaluateResult } from './results.js';
import { type EvaluateDecisionBody } from '../wire/wire-types.js';

function body(result: EvaluateResult): EvaluateDecisionBody {
  if (result.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body;
}

const BUDGETS = `
version: '1'
sdk: { enabled: true }
session: { on_unresolved: deny }
policies:
  rules:
    - { name: gate, match: { tool: gated_pay }, action: require_approval, approval: { channel: dashboard, timeout: 2m }, feedback: { message: ask a human } }
    - { name: anything, match: {}, action: allow }
budgets:
  - name: pot
    limit: 50
    currency: USD
    window: 1h
    contributors:
      - { match: { tool: pay, input: { kind: { eq: card } } }, field: card_amount }
      - { match: { tool: "*pay" }, field: amount }
  - name: glass
    limit: 10
    currency: USD
    window: 1h
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: 1m }
    contributors: [ { match: { tool: big }, field: amount } ]
  - name: sess
    limit: 5
    currency: USD
    window: session
    key: session
    contributors: [ { match: { tool: tip }, field: amount } ]
`;

async function spend(
  h: Harness,
  tool: string,
  amount: unknown,
  extra: object = {},
): Promise<EvaluateDecisionBody> {
  return body(await h.service.evaluate({ tool: { name: tool }, arguments: { amount }, ...extra }));
}

describe('budgets', () => {
  it('empty pot, exact limit (inclusive), and over the limit', async () => {
    const h = await harness(BUDGETS);
    const first = await spend(h, 'pay', 50);
    expect(first.limits?.budgets).toEqual([
      {
        name: 'pot',
        limit: 50,
        spent: 0,
        remaining: 50,
        attempted_amount: 50,
        currency: 'USD',
        window: '1h',
        on_exceed: 'deny',
        allowed: true,
        reset_at_ms: h.clock.now() + 3_600_000,
      },
    ]);
    await h.service.audit({ evaluation_id: first.evaluation_id, status: 'success' });
    expect(h.limits.ledger()).toMatchObject([
      { budgetName: 'pot', kind: 'spend', amount: 50_000_000n, auditRecordId: 'id-0002' },
    ]);
    const over = await spend(h, 'pay', 0.01);
    expect(over).toMatchObject({
      decision: 'budget_exceeded',
      feedback: { message: 'Budget "pot" would be exceeded by this call' },
    });
    expect(over.limits?.budgets?.[0]).toMatchObject({ spent: 50, remaining: 0, allowed: false });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      blockReason: 'budget_exceeded',
      policyDecision: 'allow',
    });
  });

  it('invalid amount fails closed with the real pot snapshot, whatever on_exceed says', async () => {
    const h = await harness(BUDGETS);
    const bad = await spend(h, 'big', Number.POSITIVE_INFINITY);
    expect(bad.decision).toBe('budget_exceeded');
    expect(bad.limits?.budgets?.[0]).toMatchObject({
      name: 'glass',
      reason: 'invalid_amount',
      attempted_amount: null,
      allowed: false,
    });
    expect(bad.feedback?.message).toBe('Budget "glass" could not read a valid spend amount from this call');
  });

  it('the first matching contributor supplies the amount', async () => {
    const h = await harness(BUDGETS);
    const card = body(
      await h.service.evaluate({
        tool: { name: 'pay' },
        arguments: { kind: 'card', card_amount: 3, amount: 40 },
      }),
    );
    expect(card.limits?.budgets?.[0]?.attempted_amount).toBe(3);
    const other = body(
      await h.service.evaluate({ tool: { name: 'pay' }, arguments: { kind: 'cash', amount: 40 } }),
    );
    expect(other.limits?.budgets?.[0]?.attempted_amount).toBe(40);
    expect(body(await h.service.evaluate({ tool: { name: 'chat' } })).limits).toBeUndefined();
  });

  it('session-keyed budgets without identity deny under on_unresolved: deny', async () => {
    const h = await harness(BUDGETS);
    const denied = await spend(h, 'tip', 1);
    expect(denied).toMatchObject({
      decision: 'deny',
      reason:
        'No session identity resolved (tried: header "x-helio-session-id", legacy_header) — a session-keyed limit or budget requires one. See session.identity in helio.yaml.',
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      blockReason: 'session_unresolved',
      evidenceChain: { session: { unresolved: true } },
    });
    const ok = await spend(h, 'tip', 5, { session_id: 's1' });
    expect(ok.limits?.budgets?.[0]).toMatchObject({ window: 'session', reset_at_ms: null, allowed: true });
  });

  it('session-keyed budgets pool into unknown under anonymous', async () => {
    const h = await harness(BUDGETS.replace('on_unresolved: deny', 'on_unresolved: anonymous'));
    const a = await spend(h, 'tip', 5);
    expect(a.decision).toBe('allow');
    expect((await spend(h, 'tip', 1)).decision).toBe('budget_exceeded');
  });

  it('two budgets, one breaching: all-or-nothing, nothing held or charged', async () => {
    const h = await harness(`
version: '1'
budgets:
  - { name: a, limit: 100, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: amount } ] }
  - { name: b, limit: 5, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: amount } ] }
`);
    const refused = await spend(h, 'pay', 6);
    expect(refused.decision).toBe('budget_exceeded');
    expect(refused.limits?.budgets?.map((b) => b.allowed)).toEqual([true, false]);
    const ok = await spend(h, 'pay', 5);
    expect(ok.limits?.budgets?.[0]?.spent).toBe(0);
    await h.service.audit({ evaluation_id: ok.evaluation_id, status: 'success', actual_amount: 2 });
    expect(h.limits.ledger().map((row) => [row.budgetName, row.amount])).toEqual([
      ['a', 2_000_000n],
      ['b', 2_000_000n],
    ]);
  });

  it('a changed budget identity starts a new epoch with an empty pot', async () => {
    const first = await harness(BUDGETS);
    const e = await spend(first, 'pay', 50);
    await first.service.audit({ evaluation_id: e.evaluation_id, status: 'success' });
    const same = await harness(BUDGETS, { limitStore: first.limits });
    expect((await spend(same, 'pay', 1)).decision).toBe('budget_exceeded');
    const changed = await harness(BUDGETS.replace('limit: 50', 'limit: 60'), { limitStore: first.limits });
    expect((await spend(changed, 'pay', 60)).limits?.budgets?.[0]).toMatchObject({ spent: 0, allowed: true });
  });
});

describe('break-glass budgets and native approvals', () => {
  async function breach(h: Harness): Promise<EvaluateDecisionBody> {
    const warm = await spend(h, 'big', 8);
    await h.service.audit({ evaluation_id: warm.evaluation_id, status: 'success' });
    return spend(h, 'big', 5, { origin: 'openclaw', session_id: 's' });
  }

  it('a breach raises one budget-only native ticket with budget feedback and the budget timeout', async () => {
    const h = await harness(BUDGETS);
    const pending = await breach(h);
    expect(pending).toMatchObject({
      decision: 'require_approval',
      feedback: { message: expect.stringMatching(/break-glass/) },
    });
    // The service names the ticket; where to resolve it is the HTTP layer's business.
    expect(pending.approval).toEqual({ id: expect.any(String), timeout_ms: 60_000 });
    const ticket = await h.approvals.get(pending.approval?.id ?? '');
    expect(ticket).toMatchObject({
      channelName: 'native:openclaw',
      breachedBudgets: [
        { name: 'glass', limit: 10, spent: 8, attempted_amount: 5, currency: 'USD', window: '1h' },
      ],
    });
    expect(await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'approval_unresolved' },
    });
  });

  it('approved + executed commits the breached budget as approved_overage', async () => {
    const h = await harness(BUDGETS);
    const pending = await breach(h);
    expect(
      await h.service.resolveApproval(pending.approval?.id ?? '', { resolution: 'approved' }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'resolved_by_required' },
    });
    expect(
      await h.service.resolveApproval(pending.approval?.id ?? '', {
        resolution: 'approved',
        resolved_by: 'tg:@oli',
        scope: 'always',
      }),
    ).toEqual({
      type: 'Resolved',
      body: { ok: true },
    });
    expect(
      await h.service.resolveApproval(pending.approval?.id ?? '', { resolution: 'denied', resolved_by: 'x' }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'already_resolved', status: 'approved' },
    });
    await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'error' });
    expect(h.limits.ledger().at(-1)).toMatchObject({ kind: 'approved_overage', amount: 5_000_000n });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      approvalStatus: 'approved',
      approvedBy: 'tg:@oli',
      blockReason: null,
    });
  });

  it('approved + not_executed commits nothing', async () => {
    const h = await harness(BUDGETS);
    const pending = await breach(h);
    await h.service.resolveApproval(pending.approval?.id ?? '', { resolution: 'approved', resolved_by: 'a' });
    await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'not_executed' });
    expect(h.limits.ledger()).toHaveLength(1);
    expect(h.audit.records.at(-1)?.record.evidenceChain).toMatchObject({
      budgets: [{ name: 'glass', allowed: false }],
    });
  });

  it('denied + honoured records budget_exceeded; denied + success commits plain spend', async () => {
    const h = await harness(BUDGETS);
    const honoured = await breach(h);
    await h.service.resolveApproval(honoured.approval?.id ?? '', {
      resolution: 'denied',
      resolved_by: 'a',
      reason: 'too much',
    });
    await h.service.audit({ evaluation_id: honoured.evaluation_id, status: 'not_executed' });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      blockReason: 'budget_exceeded',
      approvalStatus: 'denied',
      evidenceChain: { approval: { denial_reason: 'too much' } },
    });
    const ignored = await spend(h, 'big', 5, { session_id: 's' });
    await h.service.resolveApproval(ignored.approval?.id ?? '', { resolution: 'denied', resolved_by: 'a' });
    await h.service.audit({ evaluation_id: ignored.evaluation_id, status: 'success' });
    expect(h.limits.ledger().at(-1)).toMatchObject({ kind: 'spend', amount: 5_000_000n });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('approval_denied');
  });

  it('timeout is enforced on access: a late resolve is 409 already_resolved, an honoured timeout commits nothing', async () => {
    const h = await harness(BUDGETS);
    const pending = await breach(h);
    h.clock.advance(60_000);
    expect(
      await h.service.resolveApproval(pending.approval?.id ?? '', {
        resolution: 'approved',
        resolved_by: 'a',
      }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'already_resolved', status: 'timeout' },
    });
    await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'not_executed' });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      approvalStatus: 'timeout',
      blockReason: 'budget_exceeded',
    });
    expect(h.limits.ledger()).toHaveLength(1);
  });

  it('a merged ticket takes the rule timeout, rule feedback and keeps approval_denied', async () => {
    const h = await harness(BUDGETS.replace('tool: big }, field: amount', 'tool: "*" }, field: amount'));
    const merged = await spend(h, 'gated_pay', 11);
    expect(merged).toMatchObject({
      decision: 'require_approval',
      approval: { timeout_ms: 120_000 },
      feedback: { message: 'ask a human' },
    });
    await h.service.resolveApproval(merged.approval?.id ?? '', { resolution: 'cancelled' });
    await h.service.audit({ evaluation_id: merged.evaluation_id, status: 'not_executed' });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      approvalStatus: 'cancelled',
      blockReason: 'cancelled',
    });
    const again = await spend(h, 'gated_pay', 11);
    await h.service.resolveApproval(again.approval?.id ?? '', { resolution: 'denied', resolved_by: 'a' });
    await h.service.audit({ evaluation_id: again.evaluation_id, status: 'not_executed' });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('approval_denied');
  });

  it('unknown and non-native tickets are refused', async () => {
    const h = await harness(BUDGETS);
    expect(await h.service.resolveApproval('missing', { resolution: 'timeout' })).toMatchObject({
      type: 'Error',
      body: { error: 'ticket_not_found' },
    });
    await h.approvals.create({
      id: 'mcp-1',
      evaluationId: undefined,
      channelName: 'dashboard',
      toolName: 't',
      toolInput: {},
      matchedRule: null,
      ruleIndex: null,
      sessionId: null,
      requestedAtMs: 0,
      timeoutAtMs: Number.MAX_SAFE_INTEGER,
      timeoutMs: 1,
      status: 'pending',
      breachedBudgets: undefined,
    });
    expect(await h.service.resolveApproval('mcp-1', { resolution: 'timeout' })).toMatchObject({
      type: 'Error',
      body: { error: 'not_a_native_ticket' },
    });
    await h.approvals.create({ ...(await h.approvals.get('mcp-1'))!, id: 'loose', channelName: 'native:x' });
    expect(await h.service.resolveApproval('loose', { resolution: 'timeout' })).toMatchObject({
      type: 'Resolved',
    });
    expect(await h.approvals.resolve('loose', { status: 'approved', resolvedAtMs: 1 })).toBeUndefined();
  });
});

describe('TTL expiry', () => {
  it('an unaudited evaluation expires into an evaluation_expired record under its pre-allocated id', async () => {
    const h = await harness(BUDGETS);
    const pending = await spend(h, 'pay', 10, { origin: 'oc' });
    h.clock.advance(599_999);
    expect((await h.service.sweep()).expired).toBe(0);
    h.clock.advance(1);
    expect((await h.service.sweep()).expired).toBe(1);
    expect(h.audit.records.at(-1)).toMatchObject({
      delivery: 'immediate',
      record: {
        id: 'id-0002',
        recordKind: 'evaluation_expired',
        blockReason: null,
        evidenceChain: { sideband: { unreported: true } },
      },
    });
    expect(await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_expired' },
    });
    // Its hold was released: the full pot is available again.
    expect((await spend(h, 'pay', 50)).decision).toBe('allow');
  });

  it('expiry is also enforced on /audit access, and times out a pending ticket', async () => {
    const h = await harness(BUDGETS);
    const pending = await spend(h, 'gated_pay', 1);
    h.clock.advance(600_000);
    expect(await h.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_expired' },
    });
    expect((await h.approvals.get(pending.approval?.id ?? ''))?.status).toBe('timeout');
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      recordKind: 'evaluation_expired',
      approvalStatus: 'timeout',
    });
  });
});
