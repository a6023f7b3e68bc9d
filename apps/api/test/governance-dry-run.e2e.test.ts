/**
 * Global dry-run (`policies.dry_run: true`) over HTTP: every call is simulated and terminal at
 * /evaluate — limits and budgets are peeked, never held or charged — except a grounded rule without a
 * session, which is a real deny. The per-rule `action: dry_run` is in governance-conformance.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGovernanceApp, type GovernanceApp } from './support/governance-app.js';

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port} }
policies:
  dry_run: true
  rules:
    - { name: ping-rate, match: { tool: ping }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
    - { name: per-session, match: { tool: sessioned }, action: rate_limit, limits: { max_calls: 5, window: 1h, key: session } }
    - { name: grounded, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
    - { name: no-rm, match: { tool: rm }, action: deny }
budgets:
  - { name: pot, limit: 5, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: amount } ] }
`;

interface Row {
  readonly policy_decision: string;
  readonly block_reason: string | null;
  readonly dry_run: boolean;
}

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

/** Evaluates, checks the call is terminal (any audit replays), and returns the body and its record. */
async function simulate(body: Record<string, unknown>) {
  const evaluated = await app.post('/evaluate', body);
  expect(evaluated.status).toBe(200);
  const replay = await app.post('/audit', { evaluation_id: evaluated.body.evaluation_id, status: 'success' });
  expect(replay).toMatchObject({ status: 200, body: { already_finalized: true, finalized_by: 'evaluate' } });
  let rows: Row[] = [];
  await expect
    .poll(
      async () =>
        (rows = await app.query<Row>(
          `SELECT policy_decision, block_reason, dry_run FROM audit_records WHERE id = $1`,
          [replay.body.audit_record_id],
        )).length,
      { timeout: 5_000 },
    )
    .toBe(1);
  return { body: evaluated.body, record: rows[0] };
}

describe('global dry-run', () => {
  it('peeks the rule limit without holding it: the same last slot would forward twice', async () => {
    for (let i = 0; i < 2; i += 1) {
      const { body, record } = await simulate({ tool: { name: 'ping' } });
      expect(body).toMatchObject({
        decision: 'dry_run',
        matched_rule: 'ping-rate',
        limits: { rate: { current: 1, limit: 1 } },
        dry_run: { would_forward: true, evidence_satisfied: true, limits_ok: true },
      });
      // The underlying action stays in policy_decision; a simulation is never a block.
      expect(record).toEqual({ policy_decision: 'rate_limit', block_reason: null, dry_run: true });
    }
    expect(await app.query(`SELECT 1 FROM limit_holds UNION ALL SELECT 1 FROM limit_charge_entries`)).toEqual(
      [],
    );
  });

  it('simulates a deny rule, a breached budget and an unreadable amount as would-not-forward', async () => {
    expect((await simulate({ tool: { name: 'rm' } })).body).toMatchObject({
      decision: 'dry_run',
      dry_run: { would_forward: false, limits_ok: true },
    });
    expect((await simulate({ tool: { name: 'pay' }, arguments: { amount: 6 } })).body).toMatchObject({
      decision: 'dry_run',
      limits: { budgets: [{ name: 'pot', spent: 0, attempted_amount: 6, allowed: false }] },
      dry_run: { would_forward: false, limits_ok: false },
    });
    expect((await simulate({ tool: { name: 'pay' }, arguments: {} })).body).toMatchObject({
      limits: { budgets: [{ name: 'pot', attempted_amount: null, reason: 'invalid_amount' }] },
      dry_run: { would_forward: false, limits_ok: false },
    });
    expect((await simulate({ tool: { name: 'pay' }, arguments: { amount: 5 } })).body).toMatchObject({
      dry_run: { would_forward: true, limits_ok: true },
    });
  });

  it('reports session_unresolved instead of denying; simulates missing evidence', async () => {
    expect((await simulate({ tool: { name: 'sessioned' } })).body).toMatchObject({
      decision: 'dry_run',
      dry_run: { would_forward: false, limits_ok: false, session_unresolved: true },
    });
    expect((await simulate({ tool: { name: 'send' }, session_id: 's1' })).body).toMatchObject({
      decision: 'dry_run',
      reason: 'Required evidence not satisfied: recipient',
      dry_run: { would_forward: false, evidence_satisfied: false },
    });
  });

  it('a grounded rule without a session is a real deny even under dry-run', async () => {
    const { body, record } = await simulate({ tool: { name: 'send' } });
    expect(body).toMatchObject({ decision: 'deny', matched_rule: 'grounded' });
    expect(body).not.toHaveProperty('dry_run');
    expect(record).toEqual({ policy_decision: 'deny', block_reason: 'session_unresolved', dry_run: false });
  });
});
