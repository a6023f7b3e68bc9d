/** The drift guard's modes and global dry-run, end to end through the service. */
import { describe, expect, it } from 'vitest';
import { decidedBody as body, harness } from '../testing/service-harness.js';

describe('drift guard', () => {
  it('block mode denies a drifted tool with tool_drift changes; reverting clears it', async () => {
    const h = await harness("version: '1'\npolicies: { rules: [ { match: {}, action: allow } ] }\n");
    const tool = (description: string, annotations?: Record<string, unknown>) => ({
      tool: { name: 't', description, annotations, input_schema: { type: 'object' } },
    });
    expect(body(await h.service.evaluate(tool('v1'))).decision).toBe('allow');
    const drifted = body(await h.service.evaluate(tool('v2', { destructiveHint: true })));
    expect(drifted).toMatchObject({
      decision: 'deny',
      reason: 'Tool "t" definition drifted from baseline (annotations, description)',
      feedback: { message: 'Tool "t" definition drifted from baseline (annotations, description)' },
      matched_rule: null,
      // Both raw values, as the reference reports them; the baseline had no annotations.
      tool_drift: {
        changes: [
          { aspect: 'annotations', current: { destructiveHint: true } },
          { aspect: 'description', baseline: 'v1', current: 'v2' },
        ],
      },
    });
    expect(drifted.tool_drift?.changes[0]).not.toHaveProperty('baseline');
    // The record names the aspects; the definitions travel in the response only.
    expect(h.audit.records.at(-1)?.record.evidenceChain).toMatchObject({
      tool_drift: { mode: 'block', changes: [{ aspect: 'annotations' }, { aspect: 'description' }] },
    });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('tool_definition_drift');
    expect(body(await h.service.evaluate(tool('v1'))).decision).toBe('allow');
    expect(
      body(
        await h.service.evaluate({
          tool: { name: 't', title: 'T', description: 'v1', input_schema: { type: 'object' } },
        }),
      ).tool_drift,
    ).toEqual({
      changes: [{ aspect: 'title', current: 'T' }],
    });
  });

  it('require_approval mode raises a native ticket on each drifted call', async () => {
    const h = await harness("version: '1'\npolicies: { on_tool_drift: require_approval }\n");
    await h.service.evaluate({ tool: { name: 't', output_schema: { a: 1 } }, origin: 'oc' });
    const drifted = body(
      await h.service.evaluate({ tool: { name: 't', output_schema: { a: 2 } }, origin: 'oc' }),
    );
    expect(drifted).toMatchObject({
      decision: 'require_approval',
      approval: { timeout_ms: 300_000 },
      tool_drift: { changes: [{ aspect: 'outputSchema', baseline: { a: 1 }, current: { a: 2 } }] },
    });
  });
});

describe('global dry-run', () => {
  const DRY = `
version: '1'
session: { on_unresolved: deny }
policies:
  dry_run: true
  rules:
    - { name: no, match: { tool: rm }, action: deny }
    - { name: rate, match: { tool: r }, action: rate_limit, limits: { max_calls: 1, window: 1m, key: session } }
    - { name: spend, match: { tool: s }, action: spend_limit, limits: { max_spend: { field: a, limit: 1, currency: USD, window: 1m } } }
    - { name: ask, match: { tool: ask }, action: require_approval, feedback: { message: would ask } }
    - { name: ok, match: { tool: ok }, action: allow, feedback: { message: never shown } }
budgets:
  - { name: p, limit: 5, currency: USD, window: 1h, contributors: [ { match: { tool: ok }, field: a } ] }
`;

  it('simulates every outcome without holding, charging or ticketing', async () => {
    const h = await harness(DRY);
    const dry = async (name: string, extra: object = {}) =>
      body(await h.service.evaluate({ tool: { name }, ...extra }));
    expect(await dry('ok', { arguments: { a: 5 } })).toEqual(
      expect.objectContaining({
        decision: 'dry_run',
        dry_run: { would_forward: true, evidence_satisfied: true, limits_ok: true },
      }),
    );
    expect((await dry('ok', { arguments: { a: 5 } })).limits?.budgets?.[0]?.spent).toBe(0);
    expect((await dry('ok', { arguments: { a: 6 } })).dry_run).toEqual({
      would_forward: false,
      evidence_satisfied: true,
      limits_ok: false,
    });
    expect((await dry('ok', { arguments: { a: 6 } })).feedback).toBeUndefined();
    const denied = await dry('rm');
    expect(denied).toMatchObject({ dry_run: { would_forward: false, limits_ok: true } });
    expect(denied.feedback).toBeUndefined();
    expect(await dry('ask')).toMatchObject({
      dry_run: { would_forward: false },
      feedback: { message: 'would ask' },
    });
    expect(await dry('r')).toMatchObject({
      dry_run: { would_forward: false, limits_ok: false, session_unresolved: true },
    });
    expect(await dry('r', { session_id: 's' })).toMatchObject({
      dry_run: { would_forward: true },
      limits: { rate: { current: 1 } },
    });
    expect(await dry('s', { arguments: { a: 'x' } })).toMatchObject({
      dry_run: { would_forward: false },
      limits: { spend: { reason: 'invalid_amount' } },
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      dryRun: true,
      policyDecision: 'spend_limit',
      blockReason: null,
    });
    expect(h.limits.ledger()).toHaveLength(0);
  });

  it('peeks budgets whatever the action; an unresolved session is reported instead of peeked', async () => {
    const h = await harness(`
version: '1'
policies:
  dry_run: true
  rules:
    - { name: no, match: { tool: rm }, action: deny }
    - { name: rate, match: { tool: r }, action: rate_limit, limits: { max_calls: 1, window: 1m, key: session } }
budgets:
  - { name: p, limit: 5, currency: USD, window: 1h, contributors: [ { match: { tool: rm }, field: a } ] }
  - { name: run, limit: 5, currency: USD, window: 1h, key: session, contributors: [ { match: { tool: r }, field: a } ] }
`);
    expect(body(await h.service.evaluate({ tool: { name: 'rm' }, arguments: { a: 6 } }))).toMatchObject({
      reason: 'Matched "no" → deny',
      limits: { budgets: [{ name: 'p', attempted_amount: 6, allowed: false }] },
      dry_run: { would_forward: false, evidence_satisfied: true, limits_ok: false },
    });
    const unresolved = body(await h.service.evaluate({ tool: { name: 'r' }, arguments: { a: 1 } }));
    expect(unresolved.dry_run).toEqual({
      would_forward: false,
      evidence_satisfied: true,
      limits_ok: false,
      session_unresolved: true,
    });
    expect(unresolved).not.toHaveProperty('limits');
  });
});
