import { describe, expect, it } from 'vitest';
import { harness } from '../testing/service-harness.js';
import { type EvaluateResult } from './results.js';
import { type EvaluateDecisionBody } from '../wire/wire-types.js';

function body(result: EvaluateResult): EvaluateDecisionBody {
  if (result.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body;
}

const RATE = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: chat, match: { tool: chat }, action: allow }
    - { name: limited, match: { tool: limited }, action: rate_limit, limits: { max_calls: 2, window: 1m } }
    - { name: per-sender, match: { tool: sender }, action: rate_limit, limits: { max_calls: 1, window: 1m, key: sender_id } }
    - { name: blocked, match: { tool: rm }, action: deny, feedback: { message: no deletes, suggestion: archive } }
    - { name: pay, match: { tool: pay }, action: spend_limit, limits: { max_spend: { field: amount, limit: 10, currency: USD, window: 1h } } }
    - { name: sim, match: { tool: sim }, action: dry_run, feedback: { message: simulated } }
`;

describe('evaluate → audit lifecycle', () => {
  it('allows, then finalizes once; an identical replay is 200 already_finalized, a different payload 409', async () => {
    const h = await harness(RATE);
    const decided = body(await h.service.evaluate({ tool: { name: 'chat' }, arguments: { text: 'hi' } }));
    expect(decided).toEqual({
      evaluation_id: 'id-0001',
      decision: 'allow',
      reason: 'Matched "chat" → allow',
      matched_rule: 'chat',
      matched_rule_index: 0,
    });
    const audit = {
      evaluation_id: decided.evaluation_id,
      status: 'success' as const,
      duration_ms: 5,
      result: { ok: 1 },
    };
    const first = await h.service.audit(audit);
    expect(first).toEqual({ type: 'Finalized', body: { ok: true, audit_record_id: 'id-0002' } });
    expect(await h.service.audit({ ...audit })).toMatchObject({
      type: 'Replayed',
      body: { ok: true, audit_record_id: 'id-0002', already_finalized: true },
    });
    expect(await h.service.audit({ ...audit, duration_ms: 6 })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_conflict' },
    });
    const record = h.audit.find('id-0002');
    expect(record).toMatchObject({
      recordKind: 'tool_call',
      policyDecision: 'allow',
      matchedRule: 'chat',
      matchedRuleIndex: 0,
      blockReason: null,
      upstreamResponse: { ok: 1 },
      upstreamLatencyMs: 5,
      origin: 'sideband',
      sessionSource: 'sideband',
    });
    expect(h.audit.records.find((r) => r.record.id === 'id-0002')?.delivery).toBe('buffered');
  });

  it('with audit.include_responses: false the record keeps only that there was a result, and its size', async () => {
    const h = await harness(`${RATE}audit: { include_responses: false }\n`);
    const run = async (result: unknown): Promise<unknown> => {
      const decided = body(await h.service.evaluate({ tool: { name: 'chat' } }));
      const audited = await h.service.audit({
        evaluation_id: decided.evaluation_id,
        status: 'success',
        result,
      });
      if (audited.type !== 'Finalized')
        throw new Error(`expected a finalization, got ${JSON.stringify(audited)}`);
      return h.audit.find(audited.body.audit_record_id)?.upstreamResponse;
    };
    expect(await run({ secret: 'tool output' })).toEqual({ omitted: true, bytes: 24 });
    expect(await run(undefined)).toBeNull();
  });

  it('unknown ids are 404 evaluation_unknown; tombstones are forgotten one TTL after finalization', async () => {
    const h = await harness(RATE);
    expect(await h.service.audit({ evaluation_id: 'nope', status: 'success' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_unknown' },
    });
    const { evaluation_id } = body(await h.service.evaluate({ tool: { name: 'chat' } }));
    await h.service.audit({ evaluation_id, status: 'error', error: 'boom' });
    expect(h.audit.records[0]?.record.upstreamError).toBe('boom');
    h.clock.advance(600_000);
    await h.service.sweep();
    expect(await h.service.audit({ evaluation_id, status: 'error', error: 'boom' })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_unknown' },
    });
  });

  it('terminal decisions are recorded at evaluate; a later audit answers finalized_by evaluate', async () => {
    const h = await harness(RATE);
    const denied = body(await h.service.evaluate({ tool: { name: 'rm' } }));
    expect(denied).toMatchObject({
      decision: 'deny',
      feedback: { message: 'no deletes', suggestion: 'archive' },
    });
    expect(h.audit.records[0]).toMatchObject({
      delivery: 'immediate',
      record: { blockReason: 'policy_denied', policyDecision: 'deny' },
    });
    expect(
      await h.service.audit({
        evaluation_id: denied.evaluation_id,
        status: 'not_executed',
        result: 'anything',
      }),
    ).toEqual({
      type: 'Replayed',
      body: { ok: true, audit_record_id: 'id-0002', already_finalized: true, finalized_by: 'evaluate' },
    });
  });

  it('rate limits peek at evaluate, hold the slot, and charge only audited executions', async () => {
    const h = await harness(RATE);
    const first = body(await h.service.evaluate({ tool: { name: 'limited' } }));
    expect(first).toMatchObject({
      decision: 'allow',
      limits: { rate: { current: 1, limit: 2, window_ms: 60_000 } },
    });
    const second = body(await h.service.evaluate({ tool: { name: 'limited' } }));
    expect(second.limits?.rate?.current).toBe(2);
    const third = body(await h.service.evaluate({ tool: { name: 'limited' } }));
    expect(third).toMatchObject({
      decision: 'rate_limited',
      limits: { rate: { current: 2 } },
      // As the reference: the rule's reason, and feedback that is the rule's, else that reason.
      reason: 'Matched "limited" → rate_limit',
      feedback: { message: 'Matched "limited" → rate_limit' },
    });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('rate_limited');
    // not_executed releases its hold; the slot is free again.
    await h.service.audit({ evaluation_id: first.evaluation_id, status: 'not_executed' });
    expect(body(await h.service.evaluate({ tool: { name: 'limited' } })).decision).toBe('allow');
    await h.service.audit({ evaluation_id: second.evaluation_id, status: 'success' });
    const chain = h.audit.records.at(-1)?.record.evidenceChain;
    expect(chain).toMatchObject({ rate_limit: { current: 2, limit: 2, allowed: true } });
    h.clock.advance(60_001);
    expect(body(await h.service.evaluate({ tool: { name: 'limited' } })).decision).toBe('allow');
  });

  it('discriminates buckets by rule index and sender', async () => {
    const h = await harness(RATE);
    const a = body(await h.service.evaluate({ tool: { name: 'sender' }, metadata: { sender_id: 'U1' } }));
    expect(a.decision).toBe('allow');
    expect(
      body(await h.service.evaluate({ tool: { name: 'sender' }, metadata: { sender_id: 'U1' } })).decision,
    ).toBe('rate_limited');
    expect(
      body(await h.service.evaluate({ tool: { name: 'sender' }, metadata: { sender_id: 'U2' } })).decision,
    ).toBe('allow');
    expect(body(await h.service.evaluate({ tool: { name: 'sender' } })).decision).toBe('allow');
    expect(
      body(await h.service.evaluate({ tool: { name: 'sender' }, metadata: { sender_id: 5 } })).decision,
    ).toBe('rate_limited');
  });

  it('spend limits: inclusive limit, invalid amounts fail closed, actual_amount overrides', async () => {
    const h = await harness(RATE);
    const bad = body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: -1 } }));
    expect(bad).toMatchObject({
      decision: 'spend_limited',
      limits: { spend: { reason: 'invalid_amount', limit: 10, currency: 'USD' } },
      reason: 'Matched "pay" → spend_limit',
      feedback: { message: 'Matched "pay" → spend_limit' },
    });
    expect(
      body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 'x' } })).decision,
    ).toBe('spend_limited');
    const six = body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 6 } }));
    expect(six).toMatchObject({ decision: 'allow', limits: { spend: { current_spend: 6, limit: 10 } } });
    expect(
      await h.service.audit({
        evaluation_id: six.evaluation_id,
        status: 'success',
        actual_amount: Number.NaN,
      }),
    ).toMatchObject({ type: 'Error', body: { error: 'invalid_actual_amount' } });
    expect(
      await h.service.audit({ evaluation_id: six.evaluation_id, status: 'success', actual_amount: -2 }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'invalid_actual_amount' },
    });
    await h.service.audit({ evaluation_id: six.evaluation_id, status: 'success', actual_amount: 4 });
    expect(h.audit.records.at(-1)?.record.evidenceChain).toMatchObject({ spend_limit: { current_spend: 4 } });
    expect(body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 6 } })).decision).toBe(
      'allow',
    );
    expect(
      body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { amount: 0.01 } })),
    ).toMatchObject({
      decision: 'spend_limited',
      reason: 'Matched "pay" → spend_limit',
      feedback: { message: 'Matched "pay" → spend_limit' },
    });
  });

  it('refuses actual_amount for evaluations that track no money', async () => {
    const h = await harness(RATE);
    const { evaluation_id } = body(await h.service.evaluate({ tool: { name: 'limited' } }));
    expect(await h.service.audit({ evaluation_id, status: 'success', actual_amount: 1 })).toMatchObject({
      type: 'Error',
      body: { error: 'no_spend_rule' },
    });
  });

  it('per-rule dry_run is terminal, never forwards, and carries configured feedback', async () => {
    const h = await harness(RATE);
    const sim = body(await h.service.evaluate({ tool: { name: 'sim' } }));
    expect(sim).toMatchObject({
      decision: 'dry_run',
      feedback: { message: 'simulated' },
      dry_run: { would_forward: false, evidence_satisfied: true, limits_ok: true },
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      dryRun: true,
      policyDecision: 'dry_run',
      blockReason: null,
    });
  });
});

describe('strings PostgreSQL cannot store', () => {
  it('are U+FFFD from the entry point on: decided, answered and recorded alike, whatever the store', async () => {
    const h = await harness(RATE);
    const decided = body(
      await h.service.evaluate({
        tool: { name: 'rm' },
        session_id: 's\u0000',
        arguments: { 'p\u0000': '\uD800' },
      }),
    );
    expect(decided).toMatchObject({ decision: 'deny', matched_rule: 'blocked' });
    const allowed = body(await h.service.evaluate({ tool: { name: 'chat' }, arguments: { text: '😀' } }));
    await h.service.audit({ evaluation_id: allowed.evaluation_id, status: 'error', error: 'bad\u0000byte' });
    const rows = h.audit.records.map(({ record }) => [
      record.toolInput,
      record.sessionId,
      record.upstreamError,
    ]);
    expect(rows).toEqual([
      [{ 'p\uFFFD': '\uFFFD' }, 's\uFFFD', null],
      [{ text: '😀' }, null, 'bad\uFFFDbyte'],
    ]);
  });
});
