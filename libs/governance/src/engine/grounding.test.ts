import { describe, expect, it } from 'vitest';
import { groundingReason, sessionStrategySummary } from './grounding.js';
import { loadPolicy } from './load-policy.js';

const policy = (session = '') => loadPolicy(`version: '1'\n${session}`, { env: {} }).policy;

describe("groundingReason: the reference decision pipeline's deny texts", () => {
  const p = policy();

  it('missing evidence names the missing keys, then the expired ones', () => {
    expect(
      groundingReason(
        { type: 'evidence_missing', missing: ['approval', 'consent'], expired: ['recipient'] },
        p,
      ),
    ).toBe('Required evidence not satisfied: approval, consent, recipient');
  });

  it('expired evidence reads the same', () => {
    expect(groundingReason({ type: 'evidence_expired', expired: ['recipient'] }, p)).toBe(
      'Required evidence not satisfied: recipient',
    );
  });

  it('missing prior calls', () => {
    expect(groundingReason({ type: 'dependency_missing', tools: ['lookup', 'verify'] }, p)).toBe(
      'Required tool calls not completed: lookup, verify',
    );
  });

  it('a grounded rule without session identity names the strategies tried', () => {
    expect(groundingReason({ type: 'session_required' }, p)).toBe(
      'No session identity resolved (tried: header "x-helio-session-id", legacy_header) — rules using ' +
        'evidence.requires or requires need one. See session.identity in helio.yaml.',
    );
  });

  it('nothing for outcomes that let the call through', () => {
    for (const type of ['not_required', 'unchecked', 'satisfied'] as const)
      expect(groundingReason({ type }, p)).toBeUndefined();
  });
});

describe('sessionStrategySummary', () => {
  it('the default chain', () => {
    expect(sessionStrategySummary(policy())).toBe('header "x-helio-session-id", legacy_header');
  });

  it('a configured chain, in order, header names lowercased', () => {
    const configured = policy(
      'session: { identity: [ { source: meta }, { source: header, name: X-Run-Id }, { source: legacy_header } ] }\n',
    );
    expect(sessionStrategySummary(configured)).toBe('meta, header "x-run-id", legacy_header');
  });
});
