import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from './parse-policy.js';
import { PolicyConfigError } from './policy-config-error.js';
import { zeroDurationWarnings } from './zero-durations.js';

/** Every duration the format has, each zero (in every unit), where the reference accepts one. */
const ALL_ZERO = `
version: '1'
upstream: { url: http://127.0.0.1:9800/mcp, connect_timeout: 0s, request_timeout: 0m }
dashboard: { sse_heartbeat_interval: 0h }
policies:
  tool_revalidation: { interval: 10s, max_advertised_ttl: 0d }
  rules:
    - { match: { tool: a }, action: rate_limit, limits: { max_calls: 1, window: 0s } }
    - { match: { tool: b }, action: spend_limit, limits: { max_spend: { field: x, limit: 1, currency: EUR, window: 0m } } }
    - match: { tool: c }
      action: require_approval
      approval: { channel: dashboard, timeout: 0s, escalation_after: 0s, delegates: [dashboard] }
budgets:
  - name: per-call
    limit: 1
    currency: EUR
    window: 0h
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: 0d, escalation_after: 0m }
    contributors: [ { match: { tool: d }, field: x } ]
  - { name: pot, limit: 1, currency: EUR, window: session, key: session, idle_ttl: 0s, contributors: [ { match: { tool: e }, field: x } ] }
approval: { timeout: 0s }
audit: { retention: 0d }
sdk: { evaluation_ttl: 0s }
`;

function issuesOf(yaml: string): readonly { path: string; message: string }[] {
  try {
    parsePolicyDocument(yaml, { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyConfigError);
    return (error as PolicyConfigError).issues;
  }
  throw new Error('expected the document to be rejected');
}

describe('zero durations', () => {
  it('load wherever the reference takes a duration, in every unit', () => {
    const doc = parsePolicyDocument(ALL_ZERO, { env: {} });
    expect(doc.sdk.evaluation_ttl).toBe('0s');
    expect(doc.audit.retention).toBe('0d');
    expect(doc.approval.timeout).toBe('0s');
    expect(doc.budgets.map((budget) => [budget.window, budget.idle_ttl])).toEqual([
      ['0h', undefined],
      ['session', '0s'],
    ]);
  });

  it('keep the floors the reference has: tool_revalidation.interval stays at least 10s', () => {
    expect(issuesOf("version: '1'\npolicies: { tool_revalidation: { interval: 0s } }\n")).toEqual([
      { path: 'policies.tool_revalidation.interval', message: 'must be at least 10s' },
    ]);
  });

  it('each served zero is named at start with what it does; unserved ones and non-zero ones are not', () => {
    expect(zeroDurationWarnings(parsePolicyDocument(ALL_ZERO, { env: {} }))).toEqual([
      'policies.rules[0].limits.window is zero: the rule is not rate limited (as in the reference)',
      'policies.rules[1].limits.max_spend.window is zero: nothing accumulates; each call is judged on its own amount',
      'policies.rules[2].approval.timeout is zero: its approval tickets time out at once',
      'budgets[0].window is zero: nothing accumulates; each call is judged on its own amount',
      'budgets[0].approval.timeout is zero: its break-glass tickets time out at once',
      'budgets[1].idle_ttl is zero: a session pot starts over whenever nothing is pending',
      'approval.timeout is zero: approval tickets without their own timeout time out at once',
      'sdk.evaluation_ttl is zero: every allowed or approval-gated call expires before /audit; nothing is charged',
      'audit.retention is zero: each retention sweep (at start, then daily) deletes every record',
    ]);
    expect(zeroDurationWarnings(parsePolicyDocument("version: '1'\n", { env: {} }))).toEqual([]);
    // A window a rule's action never reads is not served, so it is not announced.
    const unread = `
version: '1'
policies:
  rules:
    - { match: { tool: a }, action: allow, limits: { max_calls: 1, window: 0s }, approval: { channel: dashboard, timeout: 0s } }
`;
    expect(zeroDurationWarnings(parsePolicyDocument(unread, { env: {} }))).toEqual([]);
  });

  it('still refuse a duration beyond exact milliseconds (the reference reads it as an inexact float)', () => {
    expect(issuesOf("version: '1'\nsdk: { evaluation_ttl: 99999999999999999d }\n")).toEqual([
      { path: 'sdk.evaluation_ttl', message: 'duration is too large' },
    ]);
  });
});
