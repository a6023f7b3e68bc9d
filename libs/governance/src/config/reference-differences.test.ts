/**
 * Where Helios's acceptance differs from the reference gateway's on purpose, and where it was brought in
 * line (docs/governance/policy.md, "Differences from the reference gateway"). Zero durations have their
 * own file (zero-durations.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from './parse-policy.js';
import { PolicyConfigError } from './policy-config-error.js';

function issuesOf(yaml: string): readonly { path: string; message: string }[] {
  try {
    parsePolicyDocument(yaml, { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyConfigError);
    return (error as PolicyConfigError).issues;
  }
  throw new Error('expected the document to be rejected');
}

const loads = (yaml: string): void => {
  expect(() => parsePolicyDocument(yaml, { env: {} })).not.toThrow();
};

describe('accepted as the reference accepts it', () => {
  it('reads << merge keys, as its configuration guide uses them with x- anchor holders', () => {
    const doc = parsePolicyDocument(
      `
version: '1'
x-deny: &deny { action: deny, feedback: { message: no } }
policies:
  rules:
    - { <<: *deny, match: { tool: a } }
    - { <<: *deny, match: { tool: b }, action: allow }
`,
      { env: {} },
    );
    expect(doc.policies.rules.map((rule) => [rule.action, rule.feedback?.message])).toEqual([
      ['deny', 'no'],
      ['allow', 'no'],
    ]);
  });

  it('takes the empty strings its schema takes, with its meaning', () => {
    const doc = parsePolicyDocument(
      `
version: '1'
upstream: { url: '' }
listen: { host: '' }
dashboard: { host: '' }
policies:
  rules:
    # Never grounded (no evidence key or tool name is empty on the wire): the rule always denies.
    - { match: { tool: a }, action: allow, evidence: { requires: [''] }, requires: [''] }
    # The amount is read from the argument named "" and echoed under the currency "".
    - { match: { tool: b }, action: spend_limit, limits: { max_spend: { field: '', limit: 1, currency: '', window: 1h } } }
`,
      { env: {} },
    );
    expect(doc.policies.rules[1]?.limits?.max_spend).toMatchObject({ field: '', currency: '' });
  });

  it('needs no upstream: Helios serves the adapter API only', () => {
    loads("version: '1'\nsdk: { enabled: true }\n");
  });
});

describe('refused as the reference refuses it', () => {
  it('an unquoted version 1, which YAML reads as a number', () => {
    expect(issuesOf('version: 1\n')).toEqual([
      { path: 'version', message: "must be the string '1' (quote it: version: '1')" },
    ]);
  });

  it('protocol_version "2026-07-28" on any transport but streamable-http', () => {
    const upstream = (transport: string): string =>
      `version: '1'\nupstream: { url: 'http://u', transport: ${transport}, command: c, protocol_version: '2026-07-28' }\n`;
    for (const transport of ['sse', 'stdio']) {
      expect(issuesOf(upstream(transport))).toEqual([
        { path: 'upstream.protocol_version', message: '"2026-07-28" requires transport "streamable-http"' },
      ]);
    }
    loads(upstream('streamable-http'));
  });
});

describe('different on purpose', () => {
  it('sdk.host "" is refused: the reference would bind every interface, Helios wants that written', () => {
    expect(issuesOf("version: '1'\nsdk: { host: '' }\n")).toEqual([
      {
        path: 'sdk.host',
        message: 'must name the address to bind (write 0.0.0.0 or :: for every interface)',
      },
    ]);
  });

  it("the dashboard-posture rules are not applied: approvals are native tickets, resolved without the reference's dashboard", () => {
    // Each of these is refused by the reference for want of its dashboard server or its secret.
    const accepted = [
      // require_approval, break-glass, flag_destructive / on_tool_drift escalations without dashboard.api_secret
      `policies: { flag_destructive: require_approval, on_tool_drift: require_approval, rules: [ { match: { tool: a }, action: require_approval } ] }`,
      `budgets: [ { name: b, limit: 1, currency: EUR, window: 1h, on_exceed: require_approval, contributors: [ { match: { tool: a }, field: x } ] } ]`,
      // dashboard.enabled (the default) without a secret or allow_open_mode; open mode off loopback
      `dashboard: { enabled: true }`,
      `dashboard: { allow_open_mode: true, host: 0.0.0.0 }`,
      // dashboard-routed approvals and escalations, and webhook channels, with dashboard.enabled: false
      `dashboard: { enabled: false }\npolicies: { rules: [ { match: { tool: a }, action: require_approval, approval: { channel: dashboard, timeout: 5m, escalation_after: 1m, delegates: [dashboard] } } ] }`,
      `dashboard: { enabled: false }\nbudgets: [ { name: b, limit: 1, currency: EUR, window: 1h, on_exceed: require_approval, approval: { channel: dashboard, timeout: 5m, escalation_after: 1m, delegates: [dashboard] }, contributors: [ { match: { tool: a }, field: x } ] } ]`,
      `dashboard: { enabled: false }\napproval: { channels: [ { type: webhook, url: 'https://h.invalid' } ] }`,
      `dashboard: { enabled: false }\npolicies: { flag_destructive: require_approval, on_tool_drift: require_approval }`,
    ];
    for (const section of accepted) loads(`version: '1'\n${section}\n`);
  });
});
