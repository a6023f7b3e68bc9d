/**
 * The texts and blocks of blocking decisions, word for word as the reference's sideband writes them
 * (packages/proxy/src/sideband/governance-service.ts, evaluate()): agents and adapters written for it
 * read `reason`, `feedback` and `limits`.
 */
import { describe, expect, it } from 'vitest';
import { decidedBody as body, harness, type Harness } from '../../testing/service-harness.js';

const HOUR = 3_600_000;
const TRIED = 'header "x-helio-session-id", legacy_header';

const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  default: allow
  rules:
    - { name: ping-rate, match: { tool: ping }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - { name: told-rate, match: { tool: told }, action: rate_limit, limits: { max_calls: 1, window: 1h }, feedback: { message: Slow down, suggestion: Wait an hour } }
    - name: buy-spend
      match: { tool: buy }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 10, currency: USD, window: 1h } }
    - { name: per-session, match: { tool: sessioned }, action: rate_limit, limits: { max_calls: 5, window: 1h, key: session } }
    - { name: metered, match: { tool: charge }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - { name: tipped, match: { tool: tip }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
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
      - { match: { tool: lone }, field: amount }
  - name: sess
    limit: 10
    currency: USD
    window: session
    key: session
    contributors: [ { match: { tool: tip }, field: amount } ]
`;

async function evaluate(h: Harness, tool: string, extra: object = {}) {
  return body(await h.service.evaluate({ tool: { name: tool }, ...extra }));
}

/** One call that ran: its charge counts from now on. */
async function ran(h: Harness, tool: string, extra: object = {}): Promise<void> {
  const { evaluation_id } = await evaluate(h, tool, extra);
  expect((await h.service.audit({ evaluation_id, status: 'success' })).type).toBe('Finalized');
}

describe('rate_limited and spend_limited keep the rule reason; feedback is the rule feedback or that reason', () => {
  it('rate_limited without configured feedback', async () => {
    const h = await harness(POLICY);
    await ran(h, 'ping');
    expect(await evaluate(h, 'ping')).toEqual({
      evaluation_id: expect.any(String),
      decision: 'rate_limited',
      reason: 'Matched "ping-rate" → rate_limit',
      matched_rule: 'ping-rate',
      matched_rule_index: 0,
      feedback: { message: 'Matched "ping-rate" → rate_limit' },
      limits: { rate: { current: 1, limit: 1, window_ms: HOUR, reset_at_ms: h.clock.now() + HOUR } },
    });
  });

  it('rate_limited with configured feedback', async () => {
    const h = await harness(POLICY);
    await ran(h, 'told');
    expect(await evaluate(h, 'told')).toMatchObject({
      decision: 'rate_limited',
      reason: 'Matched "told-rate" → rate_limit',
      feedback: { message: 'Slow down', suggestion: 'Wait an hour' },
    });
  });

  it('spend_limited over the limit', async () => {
    const h = await harness(POLICY);
    await ran(h, 'buy', { arguments: { amount: 6 } });
    h.clock.advance(1_000);
    expect(await evaluate(h, 'buy', { arguments: { amount: 5 } })).toEqual({
      evaluation_id: expect.any(String),
      decision: 'spend_limited',
      reason: 'Matched "buy-spend" → spend_limit',
      matched_rule: 'buy-spend',
      matched_rule_index: 2,
      feedback: { message: 'Matched "buy-spend" → spend_limit' },
      limits: {
        spend: {
          current_spend: 6,
          limit: 10,
          currency: 'USD',
          window_ms: HOUR,
          reset_at_ms: h.clock.now() - 1_000 + HOUR,
        },
      },
    });
  });

  it('spend_limited for an unreadable amount', async () => {
    const h = await harness(POLICY);
    expect(await evaluate(h, 'buy', { arguments: { amount: 'ten' } })).toMatchObject({
      decision: 'spend_limited',
      reason: 'Matched "buy-spend" → spend_limit',
      feedback: { message: 'Matched "buy-spend" → spend_limit' },
      limits: { spend: { reason: 'invalid_amount', limit: 10 } },
    });
  });
});

describe('budget_exceeded keeps the rule reason and names the budgets in feedback and limits.budgets', () => {
  it('a breach, beside the rule limit it peeked', async () => {
    const h = await harness(POLICY);
    expect(await evaluate(h, 'charge', { arguments: { amount: 20 } })).toEqual({
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
        rate: { current: 1, limit: 1, window_ms: HOUR, reset_at_ms: h.clock.now() + HOUR },
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
            reset_at_ms: h.clock.now() + HOUR,
          },
        ],
      },
    });
  });

  it('without a matching rule, the default-policy reason', async () => {
    const h = await harness(POLICY);
    expect(await evaluate(h, 'lone', { arguments: { amount: 11 } })).toMatchObject({
      decision: 'budget_exceeded',
      reason: 'No matching rule; applied default policy: allow',
      feedback: { message: 'Budget "pot" would be exceeded by this call' },
    });
  });

  it('an unreadable amount: its own texts, and its block after the peeked budgets', async () => {
    const h = await harness(POLICY);
    const mixed = await evaluate(h, 'mixed', { arguments: { amount: 20 } });
    expect(mixed).toMatchObject({
      decision: 'budget_exceeded',
      reason: 'No matching rule; applied default policy: allow',
      feedback: {
        message: 'Budget "a-unread" could not read a valid spend amount from this call',
        suggestion: 'Retry with a non-negative finite amount in the expected field.',
      },
    });
    expect(mixed.limits?.budgets?.map((block) => [block.name, block.allowed, block.reason])).toEqual([
      ['pot', false, undefined],
      ['a-unread', false, 'invalid_amount'],
    ]);
  });
});

describe('session_unresolved names the identity strategies tried', () => {
  const message = (tried: string) =>
    `No session identity resolved (tried: ${tried}) — a session-keyed limit or budget requires one. See session.identity in helio.yaml.`;
  const suggestion =
    'Send a session_id the identity policy accepts, or set session.on_unresolved: anonymous to restore shared pooling.';

  it('a session-keyed rule limit: reason, feedback and the record', async () => {
    const h = await harness(POLICY);
    expect(await evaluate(h, 'sessioned', { session_id: '  ' })).toEqual({
      evaluation_id: expect.any(String),
      decision: 'deny',
      reason: message(TRIED),
      matched_rule: 'per-session',
      matched_rule_index: 3,
      feedback: { message: message(TRIED), suggestion },
    });
    expect(h.audit.records.at(-1)?.record.evidenceChain).toEqual({
      session: { unresolved: true, tried: TRIED },
    });
  });

  it('the configured identity chain, header names lowercased', async () => {
    const h = await harness(
      `${POLICY}session: { identity: [ { source: header, name: X-Run-Id }, { source: meta } ] }\n`,
    );
    expect((await evaluate(h, 'sessioned')).reason).toBe(message('header "x-run-id", meta'));
  });

  it('a session-keyed budget: the rule limit peeked before it stays in limits', async () => {
    const h = await harness(POLICY);
    expect(await evaluate(h, 'tip', { arguments: { amount: 1 } })).toMatchObject({
      decision: 'deny',
      reason: message(TRIED),
      feedback: { message: message(TRIED), suggestion },
      limits: { rate: { current: 1, limit: 1, window_ms: HOUR, reset_at_ms: h.clock.now() + HOUR } },
    });
    expect(h.limits.ledger()).toEqual([]);
  });

  it('a rule limit already reached is rate_limited first, as the reference gates it', async () => {
    const h = await harness(POLICY);
    await ran(h, 'tip', { arguments: { amount: 1 }, session_id: 's' });
    expect(await evaluate(h, 'tip', { arguments: { amount: 1 } })).toMatchObject({
      decision: 'rate_limited',
      reason: 'Matched "tipped" → rate_limit',
    });
  });
});
