/**
 * Acceptance parity with the reference gateway: every policy it ships or documents loads here. The
 * policies are generated equivalents (test/support/reference-policies.ts), never copies; the census
 * below fails when the catalogue stops covering a feature the reference's samples use.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadPolicy } from '../src/engine/load-policy.js';
import { referenceEquivalentPolicies, type GeneratedPolicy } from './support/reference-policies.js';

const policies = referenceEquivalentPolicies();

type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a set of policies uses, read from their text the way a person would read the samples. */
function census(all: readonly GeneratedPolicy[]): Record<string, Set<string>> {
  const seen: Record<string, Set<string>> = {};
  const add = (feature: string, value: unknown): void => {
    (seen[feature] ??= new Set()).add(String(value));
  };
  for (const policy of all) {
    if (policy.text.includes('<<:')) add('yaml', 'merge key');
    if (policy.text.includes('${')) add('yaml', 'interpolation');
    const doc = parse(policy.text, { merge: true }) as Node;
    for (const key of Object.keys(doc)) add('root', key.startsWith('x-') ? 'x-' : key);
    for (const rule of (doc['policies']?.rules ?? []) as Node[]) {
      add('action', rule['action']);
      if (rule['action'] === 'rate_limit') add('rate key', rule['limits']?.key ?? 'default');
      if (rule['action'] === 'spend_limit') add('spend key', rule['limits']?.max_spend?.key ?? 'default');
      if (rule['action'] === 'require_approval') add('routing', rule['approval']?.channel ?? 'none');
      if (rule['approval']?.escalation_after !== undefined) add('routing', 'escalation');
      for (const key of Object.keys(rule['match'] ?? {})) add('match', key);
      for (const conditions of Object.values((rule['match']?.input ?? {}) as Node))
        for (const operator of Object.keys(conditions)) add('operator', operator);
      for (const condition of Object.values((rule['match']?.metadata ?? {}) as Node))
        add('metadata', typeof condition === 'string' ? 'shorthand' : Object.keys(condition).join());
      for (const key of ['evidence', 'requires', 'requires_success', 'feedback'] as const)
        if (rule[key] !== undefined) add('rule key', key);
    }
    for (const budget of (doc['budgets'] ?? []) as Node[]) {
      add('budget window', budget['window'] === 'session' ? 'session' : 'duration');
      add('budget key', budget['key'] ?? 'default');
      add('budget on_exceed', budget['on_exceed'] ?? 'default');
      if ((budget['contributors'] as Node[]).some((c) => c['match']?.input !== undefined))
        add('budget', 'contributor input');
    }
    for (const channel of (doc['approval']?.channels ?? []) as Node[]) add('channel', channel['type']);
    if (doc['upstream'] !== undefined) add('transport', doc['upstream'].transport ?? 'default');
    for (const source of (doc['session']?.identity ?? []) as Node[]) add('identity', source['source']);
    for (const rule of (doc['policies']?.install?.rules ?? []) as Node[])
      for (const key of Object.keys(rule['match'])) add('install match', key);
    for (const key of Object.keys(doc['policies'] ?? {})) add('policies key', key);
  }
  return seen;
}

describe("policies equivalent to the reference's shipped and documented ones", () => {
  it.each(policies.map((policy) => [policy.name, policy] as const))(
    '%s loads, every rule and budget compiled',
    (_, policy) => {
      const { policy: compiled } = loadPolicy(policy.text, { env: policy.env });
      expect(compiled.rules).toHaveLength(policy.rules);
      expect(compiled.budgets).toHaveLength(policy.budgets);
    },
  );

  it("cover every feature the reference's samples use", () => {
    const seen = census(policies);
    const sorted = (feature: string): string[] => [...(seen[feature] ?? [])].sort();
    expect(sorted('yaml')).toEqual(['interpolation', 'merge key']);
    expect(sorted('root')).toEqual(
      [
        'approval',
        'audit',
        'budgets',
        'dashboard',
        'environment',
        'listen',
        'policies',
        'sdk',
        'session',
        'upstream',
        'version',
        'x-',
      ].sort(),
    );
    expect(sorted('action')).toEqual(
      ['allow', 'deny', 'dry_run', 'rate_limit', 'require_approval', 'spend_limit'].sort(),
    );
    expect(sorted('rate key')).toEqual(['default', 'session', 'tool']);
    expect(sorted('spend key')).toEqual(['default', 'session', 'tool']);
    expect(sorted('routing')).toEqual(['dashboard', 'escalation', 'hooks', 'none', 'slack']);
    expect(sorted('match')).toEqual(['annotations', 'environment', 'input', 'metadata', 'tool']);
    expect(sorted('operator')).toEqual(['eq', 'gt', 'gte', 'lte']);
    expect(sorted('metadata')).toEqual(['regex', 'shorthand']);
    expect(sorted('rule key')).toEqual(['evidence', 'feedback', 'requires', 'requires_success']);
    expect(sorted('budget window')).toEqual(['duration', 'session']);
    expect(sorted('budget key')).toEqual(['default', 'global', 'session']);
    expect(sorted('budget on_exceed')).toEqual(['default', 'deny', 'require_approval']);
    expect(sorted('budget')).toEqual(['contributor input']);
    expect(sorted('channel')).toEqual(['dashboard', 'slack', 'webhook']);
    expect(sorted('transport')).toEqual(['default', 'sse', 'stdio', 'streamable-http']);
    expect(sorted('identity')).toEqual(['header', 'legacy_header', 'meta']);
    expect(sorted('install match')).toEqual(['metadata', 'name', 'source']);
    expect(sorted('policies key')).toEqual(
      [
        'default',
        'dry_run',
        'flag_destructive',
        'hot_reload',
        'install',
        'on_tool_drift',
        'rules',
        'tool_revalidation',
      ].sort(),
    );
  });
});
