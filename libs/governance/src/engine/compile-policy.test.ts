import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../config/parse-policy.js';
import { PolicyConfigError } from '../config/policy-config-error.js';
import { loadPolicy } from './load-policy.js';

function paths(yaml: string): string[] {
  try {
    parsePolicyDocument(yaml, { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyConfigError);
    expect((error as PolicyConfigError).code).toBe('POLICY_CONFIG_INVALID');
    return (error as PolicyConfigError).issues.map((issue) => issue.path);
  }
  throw new Error('expected the document to be rejected');
}

describe('policy compilation', () => {
  it('accepts the minimal document and fills the reference defaults', () => {
    const { policy, warnings } = loadPolicy("version: '1'\n", { env: {} });
    expect(policy.defaultAction).toBe('allow');
    expect(policy.onToolDrift).toBe('block');
    expect(policy.evaluationTtlMs).toBe(600_000);
    expect(policy.approvalTimeoutMs).toBe(300_000);
    expect(policy.onUnresolvedSession).toBe('deny');
    expect(policy.install).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('drops root x- anchor holders but refuses x- keys inside a section', () => {
    const doc = `
version: '1'
x-common: &limits { max_calls: 2, window: 1m }
policies:
  x-note: hi
  rules:
    - { match: { tool: a }, action: rate_limit, limits: *limits }
`;
    expect(paths(doc)).toEqual(['policies.x-note']);
    const ok = loadPolicy(doc.replace('  x-note: hi\n', ''), { env: {} }).policy;
    expect(ok.rules[0]?.limit).toMatchObject({ type: 'rate', maxCalls: 2, windowMs: 60_000 });
  });

  it('warns about limits that look enforced but are not read', () => {
    const { warnings } = loadPolicy(
      `
version: '1'
policies:
  rules:
    - { name: gate, match: { tool: a }, action: require_approval, approval: { channel: dashboard }, limits: { max_calls: 1, window: 1m } }
    - { name: pay, match: { tool: b }, action: spend_limit, limits: { key: session, max_spend: { field: n, limit: 5, currency: USD, window: 1h } } }
`,
      { env: {} },
    );
    expect(warnings).toEqual([
      '"gate": limits are ignored on action "require_approval" (only rate_limit and spend_limit count)',
      '"pay": limits.key is ignored on spend_limit; max_spend.key scopes the spend',
    ]);
  });

  it('warns when a window or idle TTL outlives audit.retention, whose sweep forgets older counts', () => {
    const { warnings } = loadPolicy(
      `
version: '1'
audit: { retention: 7d }
policies:
  rules:
    - { name: monthly, match: { tool: a }, action: rate_limit, limits: { max_calls: 9, window: 30d } }
    - { match: { tool: b }, action: spend_limit, limits: { max_spend: { field: n, limit: 5, currency: USD, window: 7d } } }
budgets:
  - { name: pot, limit: 9, currency: USD, window: session, key: session, idle_ttl: 8d, contributors: [ { match: { tool: c }, field: n } ] }
`,
      { env: {} },
    );
    expect(warnings).toEqual([
      '"monthly" limits.window is longer than audit.retention (7d): the retention sweep forgets what was counted before that',
      'budget "pot" idle_ttl is longer than audit.retention (7d): the retention sweep forgets what was counted before that',
    ]);
  });

  it('compiles rules, install rules and budgets with their warnings', () => {
    const { policy, warnings } = loadPolicy(
      `
version: '1'
environment: prod
sdk: { enabled: true }
policies:
  default: deny
  flag_destructive: log
  dry_run: true
  rules:
    - { name: gated, match: { tool: "send_*" }, action: require_approval, evidence: { requires: [recipient] }, requires: [lookup] }
    - { match: {}, action: rate_limit, limits: { max_calls: 1, window: 1s, key: agent } }
    - { match: {}, action: spend_limit, limits: { max_spend: { field: $.amount, limit: 2.5, currency: EUR, window: 1h } } }
  install:
    rules: [ { name: evil, match: { name: "evil-*", source: npm }, action: deny_install } ]
budgets:
  - { name: pot, limit: 10, currency: USD, window: session, key: session, on_exceed: require_approval, approval: { channel: dashboard, timeout: 1m }, contributors: [ { match: { tool: pay }, field: amount } ] }
`,
      { env: {} },
    );
    expect(policy.evidenceKeys).toEqual(new Set(['recipient']));
    expect(policy.requiredTools).toEqual(new Set(['lookup']));
    expect(policy.rules[2]?.limit).toMatchObject({
      type: 'spend',
      limit: 2_500_000n,
      currency: 'EUR',
      field: ['amount'],
    });
    expect(policy.budgets[0]).toMatchObject({
      limit: 10_000_000n,
      window: { type: 'session', idleTtlMs: 86_400_000 },
      approvalTimeoutMs: 60_000,
    });
    expect(policy.install?.rules[0]?.packageName?.('evil-pkg')).toBe(true);
    expect(warnings).toEqual([
      '"gated": require_approval without an approval block uses the global approval.timeout',
      'rule[1]: limits key "agent" is not supported; the bucket is scoped by tool',
    ]);
  });
});
