import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from './parse-policy.js';
import { PolicyConfigError } from './policy-config-error.js';
import { resolveGovernanceLimits, DEFAULT_GOVERNANCE_LIMITS } from './governance-limits.js';
import { parseDuration } from './duration.js';

function issuesOf(yaml: string, env: Record<string, string> = {}): { path: string; message: string }[] {
  try {
    parsePolicyDocument(yaml, { env });
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyConfigError);
    expect((error as PolicyConfigError).code).toBe('POLICY_CONFIG_INVALID');
    return [...(error as PolicyConfigError).issues];
  }
  throw new Error('expected the document to be rejected');
}

const paths = (yaml: string, env?: Record<string, string>): string[] =>
  issuesOf(yaml, env).map((i) => i.path);

describe('policy document loading', () => {
  it('takes the format version as the string "1" only, as the reference does', () => {
    expect(parsePolicyDocument("version: '1'\n", { env: {} }).version).toBe('1');
    expect(issuesOf('version: 1\n')).toEqual([
      { path: 'version', message: "must be the string '1' (quote it: version: '1')" },
    ]);
    expect(paths('version: 2\n')).toEqual(['version']);
    expect(issuesOf('sdk: {}\n')).toEqual([{ path: 'version', message: 'is required' }]);
  });

  it('reports every unknown key with its full path, not just the first', () => {
    const found = paths(`
version: '1'
budgetz: []
policies:
  rulez: []
  rules:
    - match: { tool: send_*, tol: x }
      action: allow
      extra: 1
sdk: { enabled: true, prot: 1 }
`);
    expect(found).toEqual(
      expect.arrayContaining([
        'budgetz',
        'policies.rulez',
        'policies.rules[0].match.tol',
        'policies.rules[0].extra',
        'sdk.prot',
      ]),
    );
    expect(found).toHaveLength(5);
  });

  it('interpolates ${VAR} in every string, leaves bare $VAR alone, and lists every unset variable', () => {
    const doc = `
version: '1'
environment: \${ENV_NAME}
policies:
  rules:
    - { name: "$LITERAL-\${SUFFIX}", match: { tool: "*" }, action: allow }
`;
    const parsed = parsePolicyDocument(doc, { env: { ENV_NAME: 'prod', SUFFIX: 'x' } });
    expect(parsed.environment).toBe('prod');
    expect(parsed.policies.rules[0]?.name).toBe('$LITERAL-x');
    expect(issuesOf(doc)).toEqual([
      { path: 'environment', message: 'environment variable ENV_NAME is not set' },
      { path: 'policies.rules[0].name', message: 'environment variable SUFFIX is not set' },
    ]);
  });

  it('validates durations', () => {
    expect(paths("version: '1'\nsdk: { evaluation_ttl: 10 minutes }\napproval: { timeout: 5x }\n")).toEqual([
      'approval.timeout',
      'sdk.evaluation_ttl',
    ]);
    // One issue per malformed duration: the range checks do not pile onto the format's.
    expect(issuesOf("version: '1'\nsdk: { evaluation_ttl: 5x }\n")).toHaveLength(1);
    // Zero is a duration (as in the reference: zero-durations.test.ts); beyond exact milliseconds is none.
    expect(
      issuesOf(
        "version: '1'\nsdk: { evaluation_ttl: 0s }\naudit: { retention: 0d }\napproval: { timeout: 99999999999999999d }\n",
      ),
    ).toEqual([{ path: 'approval.timeout', message: 'duration is too large' }]);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('1w')).toBeUndefined();
    expect(parseDuration('99999999999999999d')).toBeUndefined();
  });

  it('refuses regexes the linear-time engine cannot run, invalid regexes and unusable globs, at load', () => {
    const found = issuesOf(`
version: '1'
policies:
  rules:
    - match: { input: { a: { regex: "(a+)\\\\1" } } }
      action: deny
    - match: { metadata: { channel_id: { regex: "([" } } }
      action: deny
    - match: { tool: "" }
      action: deny
`);
    expect(found.map((i) => i.path)).toEqual([
      'policies.rules[0].match.input.a.regex',
      'policies.rules[1].match.metadata.channel_id.regex',
      'policies.rules[2].match.tool',
    ]);
    expect(found[0]?.message).toMatch(/backreferences .* not supported/);
    expect(found[1]?.message).toMatch(/invalid regex/);
    const long = issuesOf(
      `version: '1'\npolicies: { rules: [ { match: { tool: "${'a'.repeat(70_000)}" }, action: deny } ] }\n`,
    );
    expect(long[0]?.message).toMatch(/invalid glob/);
  });

  it('refuses operator objects without operators', () => {
    expect(
      paths(
        "version: '1'\npolicies: { rules: [ { match: { input: { a: {} }, metadata: { b: {} } }, action: deny } ] }\n",
      ),
    ).toEqual(['policies.rules[0].match.input.a', 'policies.rules[0].match.metadata.b']);
  });

  it('points the pre-0.11 contributor shape at the migration', () => {
    const found = issuesOf(`
version: '1'
budgets:
  - { name: b, limit: 5, currency: USD, window: 1h, contributors: [ { tool: pay, field: amount } ] }
`);
    expect(found[0]).toMatchObject({ path: 'budgets[0].contributors[0]' });
    expect(found[0]?.message).toMatch(/moved under "match"/);
  });

  it('applies the cross-field rules', () => {
    const found = paths(`
version: '1'
upstream:
  url: http://x
  transport: stdio
  forward_headers: [authorization]
  headers: { Host: h }
listen: { allowed_origins: ["*", "null", "nope", "ftp://a.b", "http://a.b/", "http://a.b"] }
session:
  identity: [ { source: header, name: Session }, { source: header, name: mcp-session-id }, { source: header, name: x-a }, { source: header, name: x-a } ]
policies:
  tool_revalidation: { interval: 5s }
  rules:
    - { match: { environment: prod }, action: allow }
    - { match: {}, action: rate_limit, limits: { key: sender_id } }
    - { match: {}, action: spend_limit }
    - { match: {}, action: spend_limit, limits: { max_spend: { field: a, limit: 1, currency: USD, window: 1h, key: sender_id } } }
    - { match: {}, action: require_approval, approval: { channel: slack, delegates: [pager] } }
budgets:
  - { name: b, limit: 1, currency: USD, window: session, approval: { channel: dashboard }, contributors: [ { match: { tool: x }, field: a } ] }
  - { name: b, limit: 1, currency: USD, window: 1h, key: sender_id, idle_ttl: 1h, contributors: [ { match: { tool: x }, field: a } ] }
approval:
  channels: [ { type: webhook, name: dashboard, url: http://h }, { type: webhook, url: http://h }, { type: webhook, url: http://i } ]
`);
    expect(found).toEqual(
      expect.arrayContaining([
        'upstream.command',
        'upstream.forward_headers[0]',
        'upstream.headers.Host',
        'listen.allowed_origins[0]',
        'listen.allowed_origins[1]',
        'listen.allowed_origins[2]',
        'listen.allowed_origins[3]',
        'listen.allowed_origins[4]',
        'session.identity[0].name',
        'session.identity[1].name',
        'session.identity[3].name',
        'policies.rules[0].match.environment',
        'policies.rules[1].limits',
        'policies.rules[1].limits.key',
        'policies.rules[2].limits.max_spend',
        'policies.rules[3].limits.max_spend.key',
        'policies.rules[4].approval.channel',
        'policies.rules[4].approval.delegates[0]',
        'budgets[0].key',
        'budgets[0].approval',
        'budgets[1].name',
        'budgets[1].idle_ttl',
        'budgets[1].key',
        'approval.channels[0].name',
        'approval.channels[2].name',
        'policies.tool_revalidation.interval',
      ]),
    );
    expect(found).not.toContain('listen.allowed_origins[5]');
  });

  it('reports schema and cross-field problems of different sections in one load', () => {
    const found = issuesOf(`
version: '1'
sdk: { port: nope }
audit: { retention: 0 days }
listen: { allowed_origins: ["*"] }
budgets:
  - { name: b, limit: 1, currency: USD, window: session, contributors: [ { match: { tool: x }, field: a } ] }
policies:
  rules: [ { match: {}, action: spend_limit } ]
`);
    expect(found.map((issue) => issue.path)).toEqual([
      'audit.retention',
      'sdk.port',
      'listen.allowed_origins[0]',
      'policies.rules[0].limits.max_spend',
      'budgets[0].key',
    ]);
  });

  it('leaves a cross-field rule out while a section it reads is invalid', () => {
    // "sender_id" needs sdk.enabled; with sdk itself invalid that is not judged from a guess.
    const found = issuesOf(`
version: '1'
sdk: { enabled: maybe }
budgets:
  - { name: b, limit: 1, currency: USD, window: 1h, key: sender_id, contributors: [ { match: { tool: x }, field: a } ] }
`);
    expect(found.map((issue) => issue.path)).toEqual(['sdk.enabled']);
  });

  it('reports YAML syntax errors and non-mapping documents', () => {
    expect(issuesOf('version: [1\n')[0]?.message).toMatch(/^YAML/);
    expect(issuesOf('- a\n')).toEqual([{ path: '', message: 'the policy document must be a mapping' }]);
    expect(issuesOf('a: 1\na: 2\n')[0]?.message).toMatch(/^YAML/);
  });

  it('reports a missing required field as required', () => {
    expect(issuesOf('policies: {}\n').map((i) => i.path)).toEqual(['version']);
    expect(
      issuesOf(
        "version: '1'\nbudgets: [ { name: b, limit: 1, window: 1h, contributors: [ { match: { tool: x }, field: a } ] } ]\n",
      ),
    ).toEqual([{ path: 'budgets[0].currency', message: 'is required' }]);
  });

  it('reports a value of the wrong type by its type, not as missing', () => {
    expect(issuesOf("version: '1'\nsdk: { enabled: 'yes' }\n")).toEqual([
      { path: 'sdk.enabled', message: 'Invalid input: expected boolean, received string' },
    ]);
  });

  it('refuses a budget limit below the millionth its pot is counted in', () => {
    const budget = (limit: string): string =>
      `version: '1'\nbudgets: [ { name: b, limit: ${limit}, currency: USD, window: 1h, contributors: [ { match: { tool: x }, field: a } ] } ]\n`;
    expect(issuesOf(budget('0.0000001'))).toEqual([
      { path: 'budgets[0].limit', message: 'limit must be at least 0.000001' },
    ]);
    expect(() => parsePolicyDocument(budget('0.000001'), { env: {} })).not.toThrow();
  });

  it('accepts limits of any finite size (micro-units have no ceiling), refuses infinite ones', () => {
    const budget = (limit: string): string =>
      `version: '1'\nbudgets: [ { name: b, limit: ${limit}, currency: USD, window: 1h, contributors: [ { match: { tool: x }, field: a } ] } ]\n`;
    const spend = (limit: string): string =>
      `version: '1'\npolicies: { rules: [ { match: { tool: x }, action: spend_limit, limits: { max_spend: { field: a, limit: ${limit}, currency: USD, window: 1h } } } ] }\n`;
    for (const limit of ['1e13', '1e25', '1.7976931348623157e308']) {
      expect(() => parsePolicyDocument(budget(limit), { env: {} }), limit).not.toThrow();
      expect(() => parsePolicyDocument(spend(limit), { env: {} }), limit).not.toThrow();
    }
    for (const limit of ['.inf', '1e400']) {
      expect(issuesOf(budget(limit)).map((issue) => issue.path)).toEqual(['budgets[0].limit']);
      expect(issuesOf(spend(limit)).map((issue) => issue.path)).toEqual([
        'policies.rules[0].limits.max_spend.limit',
      ]);
    }
    // A negative limit is told so, once.
    expect(issuesOf(budget('-1')).map((issue) => issue.message)).toEqual([
      'Too small: expected number to be >0',
    ]);
  });
});

describe('governance limits', () => {
  it('defaults to the seed caps and accepts overrides', () => {
    expect(DEFAULT_GOVERNANCE_LIMITS).toMatchObject({
      maxOrigins: 32,
      maxToolsPerOrigin: 1_024,
      maxToolInputBytes: 65_536,
      maxMetadataBytes: 4_096,
      maxPendingEvaluations: 10_000,
      maxPendingBytes: 67_108_864,
      maxSenderKeys: 50_000,
    });
    expect(resolveGovernanceLimits({ maxOrigins: 2 }).maxOrigins).toBe(2);
  });

  it('refuses non-positive and unknown caps, by path', () => {
    try {
      resolveGovernanceLimits({ maxOrigins: 0, bogus: 1 } as never);
      throw new Error('expected failure');
    } catch (error) {
      expect((error as PolicyConfigError).issues.map((i) => i.path)).toEqual([
        'limits.maxOrigins',
        'limits.bogus',
      ]);
    }
  });
});
