import { describe, expect, it } from 'vitest';
import { loadPolicy } from './load-policy.js';
import { decide, type DecideInput } from './decide.js';
import { DEFAULT_ANNOTATIONS, effectiveAnnotations } from './annotations.js';
import { type GroundingSnapshot } from './grounding.js';
import { resolveDotPath, parseDotPath } from './dot-path.js';
import { testOperator } from './conditions.js';

function policy(rules: string, extra = ''): ReturnType<typeof loadPolicy>['policy'] {
  return loadPolicy(`version: '1'\n${extra}\npolicies:\n${rules}\n`, { env: {} }).policy;
}

function run(p: ReturnType<typeof policy>, input: Partial<DecideInput> = {}): ReturnType<typeof decide> {
  return decide({ policy: p, toolName: 'tool', args: {}, ...input });
}

describe('input operators', () => {
  const p = policy(`
  rules:
    - { name: eq, match: { input: { a: { eq: 1 } } }, action: deny }
    - { name: deep, match: { input: { $.obj: { eq: { x: [1, 2] } } } }, action: deny }
    - { name: neq, match: { input: { b: { neq: x } } }, action: deny }
    - { name: range, match: { input: { n: { gt: 1, lte: 3 } } }, action: deny }
    - { name: lt, match: { input: { m: { lt: 0, gte: -5 } } }, action: deny }
    - { name: contains, match: { input: { s: { contains: needle } } }, action: deny }
    - { name: regex, match: { input: { r: { regex: "^ab+c$" } } }, action: deny }
    - { name: whole, match: { input: { $: { eq: { only: true } } } }, action: deny }
`);
  const matched = (args: unknown): string | null => run(p, { args }).matchedRule?.name ?? null;

  it('eq is strict (no coercion) and deep for objects', () => {
    expect(matched({ a: 1 })).toBe('eq');
    expect(matched({ a: '1' })).toBeNull();
    expect(matched({ obj: { x: [1, 2] } })).toBe('deep');
    expect(matched({ obj: { x: [2, 1] } })).toBeNull();
  });

  it('neq is false when the field is absent', () => {
    expect(matched({ b: 'y' })).toBe('neq');
    expect(matched({ b: 'x' })).toBeNull();
    expect(matched({})).toBeNull();
  });

  it('ordering operators need numbers on both sides and AND together', () => {
    expect(matched({ n: 2 })).toBe('range');
    expect(matched({ n: 3 })).toBe('range');
    expect(matched({ n: 4 })).toBeNull();
    expect(matched({ n: '2' })).toBeNull();
    expect(matched({ m: -5 })).toBe('lt');
    expect(matched({ m: -6 })).toBeNull();
  });

  it('contains and regex need strings', () => {
    expect(matched({ s: 'haystack needle' })).toBe('contains');
    expect(matched({ s: ['needle'] })).toBeNull();
    expect(matched({ r: 'abbbc' })).toBe('regex');
    expect(matched({ r: 1 })).toBeNull();
  });

  it('$ addresses the whole arguments object; absent arguments never match conditions', () => {
    expect(matched({ only: true })).toBe('whole');
    expect(matched(undefined)).toBeNull();
  });

  it('refuses prototype-reaching path segments', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": 1}}') as unknown;
    expect(resolveDotPath(hostile, parseDotPath('__proto__.polluted'))).toBeUndefined();
    expect(resolveDotPath(hostile, parseDotPath('$.constructor.prototype'))).toBeUndefined();
    expect(resolveDotPath({}, parseDotPath('toString'))).toBeUndefined();
    expect(resolveDotPath({ a: [1] }, parseDotPath('a.0'))).toBeUndefined();
    expect(resolveDotPath({ a: { b: 2 } }, parseDotPath('a.b'))).toBe(2);
    const p2 = policy('  rules:\n    - { match: { input: { __proto__.x: { neq: 0 } } }, action: deny }\n');
    expect(run(p2, { args: hostile }).action).toBe('allow');
  });

  it('rejects an unknown operator variant loudly', () => {
    expect(() => testOperator({ type: 'bogus' } as never, 1)).toThrow(/unexpected variant/);
  });
});

describe('tool globs', () => {
  const p = policy(`
  rules:
    - { name: prefix, match: { tool: "send_*" }, action: deny }
    - { name: dotted, match: { tool: "stripe.*" }, action: deny }
    - { name: exact, match: { tool: "get_weather" }, action: deny }
    - { name: brace, match: { tool: "{read,list}_files" }, action: deny }
    - { name: any, match: { tool: "*" }, action: allow }
`);
  const matched = (toolName: string): string | undefined => run(p, { toolName }).matchedRule?.name;

  it('matches prefixes, dotted namespaces, exact names, braces and the catch-all', () => {
    expect(matched('send_email')).toBe('prefix');
    expect(matched('send_')).toBe('prefix');
    expect(matched('stripe.charge')).toBe('dotted');
    expect(matched('stripe')).toBe('any');
    expect(matched('get_weather')).toBe('exact');
    expect(matched('get_weather2')).toBe('any');
    expect(matched('list_files')).toBe('brace');
    expect(matched('.hidden')).toBe('any');
  });

  it('does not let * cross a path separator', () => {
    expect(matched('a/b')).toBeUndefined();
  });
});

describe('decision pipeline', () => {
  it('first match wins and reasons name the rule or the default', () => {
    const p = policy(`
  default: deny
  rules:
    - { name: first, match: { tool: t }, action: allow }
    - { match: { tool: t }, action: deny }
    - { match: { tool: u }, action: deny }
`);
    expect(run(p, { toolName: 't' })).toMatchObject({ action: 'allow', reason: 'Matched "first" → allow' });
    expect(run(p, { toolName: 'u' }).reason).toBe('Matched rule[2] → deny');
    expect(run(p, { toolName: 'v' })).toMatchObject({
      action: 'deny',
      matchedRule: undefined,
      reason: 'No matching rule; applied default policy: deny',
    });
  });

  it('matches annotations against MCP defaults when hints are missing', () => {
    const p = policy(`
  rules:
    - { name: ro, match: { annotations: { readOnlyHint: true } }, action: allow }
    - { name: destructive, match: { annotations: { destructiveHint: true, openWorldHint: true } }, action: deny }
`);
    expect(run(p).matchedRule?.name).toBe('destructive');
    expect(
      run(p, { baselineAnnotations: effectiveAnnotations({ readOnlyHint: true }) }).matchedRule?.name,
    ).toBe('ro');
    expect(
      run(p, { baselineAnnotations: effectiveAnnotations({ destructiveHint: false, readOnlyHint: 'yes' }) })
        .matchedRule,
    ).toBeUndefined();
    expect(effectiveAnnotations(null)).toBe(DEFAULT_ANNOTATIONS);
  });

  it('matches environment exactly and metadata with the virtual agent_id', () => {
    const p = policy(
      `
  rules:
    - { name: env, match: { environment: Prod }, action: deny }
    - { name: agent, match: { metadata: { agent_id: main, channel_id: { contains: gen } } }, action: deny }
    - { name: neq, match: { metadata: { sender_id: { neq: U1, regex: "^U" } } }, action: require_approval }
`,
      'environment: prod',
    );
    expect(run(p).matchedRule).toBeUndefined();
    expect(run(p, { agentId: 'main', metadata: { channel_id: 'general' } }).matchedRule?.name).toBe('agent');
    expect(run(p, { agentId: 'other', metadata: { channel_id: 'general' } }).matchedRule).toBeUndefined();
    expect(run(p, { agentId: 'main' }).matchedRule).toBeUndefined();
    // The virtual agent_id shadows a literal key of that name; without one, the literal key is read.
    const general = { agent_id: 'main', channel_id: 'general' };
    expect(run(p, { agentId: 'other', metadata: general }).matchedRule).toBeUndefined();
    expect(run(p, { metadata: general }).matchedRule?.name).toBe('agent');
    expect(run(p, { agentId: null, metadata: general }).matchedRule?.name).toBe('agent');
    expect(run(p, { metadata: { sender_id: 'U2' } }).matchedRule?.name).toBe('neq');
    expect(run(p, { metadata: { sender_id: 7 } }).matchedRule).toBeUndefined();
    expect(run(p, { metadata: null }).matchedRule).toBeUndefined();
  });

  it('in drift log mode keeps the stricter of baseline and current evaluation (ties keep baseline)', () => {
    const p = policy(`
  on_tool_drift: log
  rules:
    - { name: safe, match: { annotations: { destructiveHint: false } }, action: allow }
    - { name: risky, match: { annotations: { destructiveHint: true } }, action: require_approval }
`);
    const baseline = effectiveAnnotations({ destructiveHint: false });
    const current = effectiveAnnotations({ destructiveHint: true });
    const changes = [{ aspect: 'annotations' as const }];
    const stricter = run(p, {
      baselineAnnotations: baseline,
      currentAnnotations: current,
      driftChanges: changes,
    });
    expect(stricter).toMatchObject({ action: 'require_approval', drift: { mode: 'log', changes } });
    expect(stricter.matchedRule?.name).toBe('risky');
    const looser = run(p, {
      baselineAnnotations: current,
      currentAnnotations: baseline,
      driftChanges: changes,
    });
    expect(looser.matchedRule?.name).toBe('risky');
    const tie = run(p, {
      baselineAnnotations: baseline,
      currentAnnotations: baseline,
      driftChanges: changes,
    });
    expect(tie.matchedRule?.name).toBe('safe');
  });

  it('flag_destructive marks unmatched destructive tools and escalates only an allow', () => {
    const log = policy('  flag_destructive: log\n  rules: []\n');
    expect(run(log)).toMatchObject({ action: 'allow', flaggedDestructive: true });
    expect(
      run(log, { baselineAnnotations: effectiveAnnotations({ destructiveHint: false }) }).flaggedDestructive,
    ).toBe(false);
    const escalate = policy(
      '  flag_destructive: require_approval\n  rules: [ { match: { tool: known }, action: allow } ]\n',
    );
    expect(run(escalate)).toMatchObject({
      action: 'require_approval',
      reason: 'Destructive tool "tool" auto-escalated by flag_destructive policy',
      flaggedDestructive: true,
      matchedRule: undefined,
    });
    expect(run(escalate, { toolName: 'known' })).toMatchObject({
      action: 'allow',
      flaggedDestructive: false,
    });
    const denyDefault = policy('  default: deny\n  flag_destructive: require_approval\n');
    expect(run(denyDefault)).toMatchObject({ action: 'deny', flaggedDestructive: true });
    const logDrift = policy('  on_tool_drift: log\n  flag_destructive: log\n');
    expect(
      run(logDrift, {
        baselineAnnotations: effectiveAnnotations({ destructiveHint: false }),
        currentAnnotations: effectiveAnnotations({ destructiveHint: true }),
        driftChanges: [{ aspect: 'annotations' }],
      }).flaggedDestructive,
    ).toBe(true);
  });

  it('the drift gate overrides explicit allow and per-rule dry_run', () => {
    const block = policy('  rules: [ { match: {}, action: allow } ]\n');
    expect(
      run(block, { driftChanges: [{ aspect: 'annotations' }, { aspect: 'description' }] }),
    ).toMatchObject({
      action: 'deny',
      reason: 'Tool "tool" definition drifted from baseline (annotations, description)',
      matchedRule: undefined,
      isDryRun: false,
    });
    const approve = policy(
      '  on_tool_drift: require_approval\n  rules: [ { match: {}, action: dry_run } ]\n',
    );
    expect(run(approve, { driftChanges: [{ aspect: 'title' }] })).toMatchObject({
      action: 'require_approval',
      reason: 'Tool "tool" definition drifted from baseline (title)',
      isDryRun: false,
    });
    expect(run(approve, { driftChanges: [] })).toMatchObject({ action: 'dry_run', isDryRun: true });
  });

  it('grounding: session required, evidence missing vs expired, success-only dependencies', () => {
    const p = policy(`
  rules:
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient, approval] }, requires: [lookup] }
    - { name: loose, match: { tool: loose }, action: dry_run, requires: [lookup], requires_success: false }
`);
    const snapshot = (
      evidence: [string, 'present' | 'expired'][],
      calls: [string, boolean][],
    ): GroundingSnapshot => ({
      evidence: new Map(evidence),
      toolCalls: new Map(calls),
    });
    expect(run(p, { toolName: 'send', sessionId: '  ' })).toMatchObject({
      action: 'deny',
      sessionBlocked: true,
      grounding: { type: 'session_required' },
    });
    expect(run(p, { toolName: 'send', sessionId: 's' })).toMatchObject({
      action: 'allow',
      grounding: { type: 'unchecked' },
    });
    expect(
      run(p, { toolName: 'send', sessionId: 's', grounding: snapshot([['recipient', 'expired']], []) }),
    ).toMatchObject({
      action: 'deny',
      grounding: { type: 'evidence_missing', missing: ['approval'], expired: ['recipient'] },
    });
    const expired = run(p, {
      toolName: 'send',
      sessionId: 's',
      grounding: snapshot(
        [
          ['recipient', 'expired'],
          ['approval', 'present'],
        ],
        [],
      ),
    });
    expect(expired).toMatchObject({
      action: 'deny',
      evidenceBlocked: true,
      grounding: { type: 'evidence_expired' },
    });
    expect(expired.reason).toBe('Required evidence not satisfied: recipient');
    const present = snapshot(
      [
        ['recipient', 'present'],
        ['approval', 'present'],
      ],
      [['lookup', false]],
    );
    expect(run(p, { toolName: 'send', sessionId: 's', grounding: present })).toMatchObject({
      grounding: { type: 'dependency_missing', tools: ['lookup'] },
    });
    const succeeded = snapshot(
      [
        ['recipient', 'present'],
        ['approval', 'present'],
      ],
      [['lookup', true]],
    );
    expect(run(p, { toolName: 'send', sessionId: 's', grounding: succeeded })).toMatchObject({
      action: 'allow',
      grounding: { type: 'satisfied' },
    });
    // requires_success: false accepts a failed prior call; dry-run still simulates grounding.
    expect(
      run(p, { toolName: 'loose', sessionId: 's', grounding: snapshot([], [['lookup', false]]) }),
    ).toMatchObject({
      action: 'dry_run',
      isDryRun: true,
    });
    expect(run(p, { toolName: 'loose', sessionId: 's', grounding: snapshot([], []) })).toMatchObject({
      action: 'deny',
      isDryRun: true,
      evidenceBlocked: true,
    });
  });

  it('global dry-run simulates, except a sessionless grounded rule, which is a real deny', () => {
    const p = policy('  dry_run: true\n  rules: [ { match: { tool: g }, action: allow, requires: [x] } ]\n');
    expect(run(p)).toMatchObject({ action: 'allow', isDryRun: true });
    expect(run(p, { toolName: 'g' })).toMatchObject({
      action: 'deny',
      isDryRun: false,
      sessionBlocked: true,
    });
  });

  it('is deterministic: the same input yields the same decision', () => {
    const p = policy('  rules: [ { match: { input: { a: { gt: 1 } } }, action: deny } ]\n');
    const input = { args: { a: 2 }, sessionId: 's' };
    expect(run(p, input)).toEqual(run(p, input));
  });
});
