/**
 * The decision texts and detail blocks of POST /evaluate, over HTTP against the real listener and
 * PostgreSQL, word for word as the reference's sideband writes them (adapters and agents written for it
 * read them): `reason`, `feedback`, `limits` and `tool_drift` of rate_limited, spend_limited,
 * budget_exceeded, session_unresolved, grounding denies and drift.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_TOKEN, startGovernanceApp, type GovernanceApp, type Reply } from './support/governance-app.js';

const HOUR = 3_600_000;
const TRIED = 'header "x-helio-session-id", legacy_header';

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port}, evaluation_ttl: 10m }
policies:
  default: allow
  on_tool_drift: block
  rules:
    - { name: ping-rate, match: { tool: ping }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - { name: told-rate, match: { tool: told }, action: rate_limit, limits: { max_calls: 1, window: 1h }, feedback: { message: Slow down, suggestion: Wait an hour } }
    - name: buy-spend
      match: { tool: buy }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 10, currency: USD, window: 1h } }
    - { name: per-session, match: { tool: sessioned }, action: rate_limit, limits: { max_calls: 5, window: 1h, key: session } }
    - { name: metered, match: { tool: charge }, action: rate_limit, limits: { max_calls: 5, window: 1h } }
    - { name: tipped, match: { tool: tip }, action: rate_limit, limits: { max_calls: 5, window: 1h } }
    - { name: send-grounded, match: { tool: send }, action: allow, evidence: { requires: [recipient, consent] } }
    - { name: refund-after, match: { tool: refund }, action: allow, requires: [lookup, verify] }
budgets:
  - name: a-unread
    limit: 10
    currency: USD
    window: 1h
    contributors: [ { match: { tool: mixed }, field: nope } ]
  - name: pot
    limit: 10
    currency: USD
    window: 1h
    contributors:
      - { match: { tool: charge }, field: amount }
      - { match: { tool: mixed }, field: amount }
  - name: run
    limit: 10
    currency: USD
    window: 1h
    key: session
    contributors: [ { match: { tool: tip }, field: amount } ]
`;

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

const evaluate = (body: Record<string, unknown>) => app.post('/evaluate', body);

/** A call that ran: evaluated, then audited success. */
async function ran(body: Record<string, unknown>): Promise<void> {
  const evaluated = await evaluate(body);
  expect(evaluated.body.decision).toBe('allow');
  expect(
    (await app.post('/audit', { evaluation_id: evaluated.body.evaluation_id, status: 'success' })).status,
  ).toBe(201);
}

/** The evidence chain of a decision final at /evaluate (its /audit replays with the record id). */
async function chainOf(evaluated: Reply): Promise<unknown> {
  const replay = await app.post('/audit', {
    evaluation_id: evaluated.body.evaluation_id,
    status: 'not_executed',
  });
  const [row] = await app.query<{ evidence_chain: unknown }>(
    'SELECT evidence_chain FROM audit_records WHERE id = $1',
    [replay.body.audit_record_id],
  );
  return row?.evidence_chain;
}

describe('rate_limited and spend_limited: the rule reason, and the rule feedback or that reason', () => {
  it('rate_limited', async () => {
    const now = app.clock.now();
    await ran({ tool: { name: 'ping' } });
    expect(await evaluate({ tool: { name: 'ping' } })).toEqual({
      status: 200,
      body: {
        evaluation_id: expect.any(String),
        decision: 'rate_limited',
        reason: 'Matched "ping-rate" → rate_limit',
        matched_rule: 'ping-rate',
        matched_rule_index: 0,
        feedback: { message: 'Matched "ping-rate" → rate_limit' },
        limits: { rate: { current: 1, limit: 1, window_ms: HOUR, reset_at_ms: now + HOUR } },
      },
    });
    await ran({ tool: { name: 'told' } });
    expect((await evaluate({ tool: { name: 'told' } })).body).toMatchObject({
      decision: 'rate_limited',
      reason: 'Matched "told-rate" → rate_limit',
      feedback: { message: 'Slow down', suggestion: 'Wait an hour' },
    });
  });

  it('spend_limited, over the limit and for an unreadable amount', async () => {
    const now = app.clock.now();
    await ran({ tool: { name: 'buy' }, arguments: { amount: 6 } });
    expect((await evaluate({ tool: { name: 'buy' }, arguments: { amount: 5 } })).body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'spend_limited',
      reason: 'Matched "buy-spend" → spend_limit',
      matched_rule: 'buy-spend',
      matched_rule_index: 2,
      feedback: { message: 'Matched "buy-spend" → spend_limit' },
      limits: {
        spend: { current_spend: 6, limit: 10, currency: 'USD', window_ms: HOUR, reset_at_ms: now + HOUR },
      },
    });
    expect((await evaluate({ tool: { name: 'buy' }, arguments: { amount: 'ten' } })).body).toMatchObject({
      decision: 'spend_limited',
      reason: 'Matched "buy-spend" → spend_limit',
      feedback: { message: 'Matched "buy-spend" → spend_limit' },
      limits: { spend: { reason: 'invalid_amount', limit: 10 } },
    });
  });
});

describe('budget_exceeded: the rule reason; feedback and limits.budgets name the budgets', () => {
  it('a breach, beside the rule limit the call passed', async () => {
    const now = app.clock.now();
    expect((await evaluate({ tool: { name: 'charge' }, arguments: { amount: 20 } })).body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'budget_exceeded',
      reason: 'Matched "metered" → rate_limit',
      matched_rule: 'metered',
      matched_rule_index: 4,
      feedback: {
        message: 'Budget "pot" would be exceeded by this call',
        suggestion: 'Wait for the window to reset or reduce the amount.',
      },
      limits: {
        rate: { current: 1, limit: 5, window_ms: HOUR, reset_at_ms: now + HOUR },
        budgets: [
          {
            name: 'pot',
            limit: 10,
            spent: 0,
            remaining: 10,
            attempted_amount: 20,
            currency: 'USD',
            window: '1h',
            on_exceed: 'deny',
            allowed: false,
            reset_at_ms: now + HOUR,
          },
        ],
      },
    });
  });

  it('an unreadable amount: its own texts; the budgets it could read are listed first', async () => {
    const mixed = await evaluate({ tool: { name: 'mixed' }, arguments: { amount: 20 } });
    expect(mixed.body).toMatchObject({
      decision: 'budget_exceeded',
      reason: 'No matching rule; applied default policy: allow',
      feedback: {
        message: 'Budget "a-unread" could not read a valid spend amount from this call',
        suggestion: 'Retry with a non-negative finite amount in the expected field.',
      },
      limits: {
        budgets: [
          { name: 'pot', attempted_amount: 20, allowed: false },
          { name: 'a-unread', attempted_amount: null, allowed: false, reason: 'invalid_amount' },
        ],
      },
    });
    expect(mixed.body.limits.budgets[0]).not.toHaveProperty('reason');
  });
});

describe('session_unresolved names the identity chain tried', () => {
  const message = `No session identity resolved (tried: ${TRIED}) — a session-keyed limit or budget requires one. See session.identity in helio.yaml.`;
  const feedback = {
    message,
    suggestion:
      'Send a session_id the identity policy accepts, or set session.on_unresolved: anonymous to restore shared pooling.',
  };

  it('a session-keyed rule limit: reason, feedback and the record', async () => {
    const denied = await evaluate({ tool: { name: 'sessioned' }, session_id: '  ' });
    expect(denied.body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'deny',
      reason: message,
      matched_rule: 'per-session',
      matched_rule_index: 3,
      feedback,
    });
    expect(await chainOf(denied)).toEqual({ session: { unresolved: true, tried: TRIED } });
  });

  it('a session-keyed budget: the rule limit peeked first stays in limits', async () => {
    const now = app.clock.now();
    const denied = await evaluate({ tool: { name: 'tip' }, arguments: { amount: 1 } });
    expect(denied.body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'deny',
      reason: message,
      matched_rule: 'tipped',
      matched_rule_index: 5,
      feedback,
      limits: { rate: { current: 1, limit: 5, window_ms: HOUR, reset_at_ms: now + HOUR } },
    });
  });
});

describe('grounding denies', () => {
  const putEvidence = (session_id: string, evidence_key: string, ttl_seconds?: number) =>
    app.post(
      '/evidence',
      { session_id, tool_name: 'probe', evidence_key, evidence_data: 1, ttl_seconds },
      SDK_TOKEN,
    );

  it('missing, then expired evidence; missing prior calls', async () => {
    const missing = await evaluate({ tool: { name: 'send' }, session_id: 'g-1' });
    expect(missing.body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'deny',
      reason: 'Required evidence not satisfied: recipient, consent',
      matched_rule: 'send-grounded',
      matched_rule_index: 6,
      feedback: { message: 'Required evidence not satisfied: recipient, consent' },
    });
    expect((await putEvidence('g-1', 'consent', 60)).status).toBe(201);
    expect((await putEvidence('g-1', 'recipient')).status).toBe(201);
    expect((await evaluate({ tool: { name: 'send' }, session_id: 'g-1' })).body.decision).toBe('allow');
    app.clock.advance(61_000);
    expect((await evaluate({ tool: { name: 'send' }, session_id: 'g-1' })).body).toMatchObject({
      decision: 'deny',
      reason: 'Required evidence not satisfied: consent',
      feedback: { message: 'Required evidence not satisfied: consent' },
    });
    await ran({ tool: { name: 'lookup' }, session_id: 'g-1' });
    expect((await evaluate({ tool: { name: 'refund' }, session_id: 'g-1' })).body).toMatchObject({
      decision: 'deny',
      reason: 'Required tool calls not completed: verify',
      feedback: { message: 'Required tool calls not completed: verify' },
    });
  });

  it('a grounded rule without session identity', async () => {
    const reason = `No session identity resolved (tried: ${TRIED}) — rules using evidence.requires or requires need one. See session.identity in helio.yaml.`;
    expect((await evaluate({ tool: { name: 'refund' } })).body).toMatchObject({
      decision: 'deny',
      reason,
      matched_rule: 'refund-after',
      feedback: { message: reason },
    });
  });
});

describe('tool_drift: each changed aspect with its baseline and current values as sent', () => {
  it('every aspect, in the reference order; the reason lists them', async () => {
    const origin = 'texts-drift';
    const baseline = {
      name: 'fetcher',
      description: 'Fetches a URL',
      input_schema: { type: 'object', properties: { url: { type: 'string' } } },
      annotations: { readOnlyHint: true },
      title: 'Fetch',
    };
    expect((await evaluate({ origin, tool: baseline })).body.decision).toBe('allow');
    const current = {
      name: 'fetcher',
      description: 'Sends mail',
      input_schema: { type: 'object', properties: { to: { type: 'string' } } },
      output_schema: { type: 'string' },
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    const reason =
      'Tool "fetcher" definition drifted from baseline (annotations, inputSchema, description, outputSchema, title)';
    const drifted = await evaluate({ origin, tool: current });
    expect(drifted.body).toEqual({
      evaluation_id: expect.any(String),
      decision: 'deny',
      reason,
      matched_rule: null,
      matched_rule_index: null,
      feedback: { message: reason },
      tool_drift: {
        changes: [
          { aspect: 'annotations', baseline: baseline.annotations, current: current.annotations },
          { aspect: 'inputSchema', baseline: baseline.input_schema, current: current.input_schema },
          { aspect: 'description', baseline: 'Fetches a URL', current: 'Sends mail' },
          { aspect: 'outputSchema', current: { type: 'string' } },
          { aspect: 'title', baseline: 'Fetch' },
        ],
      },
    });
    // The record names the aspects; the definitions travel in the response only.
    expect(await chainOf(drifted)).toMatchObject({
      tool_drift: {
        mode: 'block',
        changes: [
          { aspect: 'annotations' },
          { aspect: 'inputSchema' },
          { aspect: 'description' },
          { aspect: 'outputSchema' },
          { aspect: 'title' },
        ],
      },
    });
  });

  it('values come back whole, not hashed or cut: the response holds both definitions', async () => {
    const origin = 'texts-drift-large';
    const before = 'b'.repeat(30 * 1024);
    const after = 'a'.repeat(60 * 1024);
    expect((await evaluate({ origin, tool: { name: 'big', description: before } })).body.decision).toBe(
      'allow',
    );
    const drifted = await evaluate({ origin, tool: { name: 'big', description: after } });
    expect(drifted.body.tool_drift).toEqual({
      changes: [{ aspect: 'description', baseline: before, current: after }],
    });
  });
});
