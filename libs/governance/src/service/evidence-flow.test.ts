import { describe, expect, it } from 'vitest';
import { harness } from '../testing/service-harness.js';

const GROUNDED = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
`;

describe('POST /evidence (SDK scope)', () => {
  it('stores an allow-listed key for the session, which then grounds the call', async () => {
    const h = await harness(GROUNDED);
    const call = { session_id: 's1', tool: { name: 'send' } };
    expect((await h.service.evaluate(call)).body).toMatchObject({ decision: 'deny' });
    const stored = await h.service.putEvidence({
      session_id: 's1',
      tool_name: 'lookup',
      evidence_key: 'recipient',
      evidence_data: { to: 'a@b.c' },
      ttl_seconds: 60,
    });
    expect(stored).toEqual({ type: 'Stored', body: { ok: true } });
    expect(h.evidence.read('s1', 'recipient')).toEqual({ to: 'a@b.c' });
    expect((await h.service.evaluate(call)).body).toMatchObject({ decision: 'allow' });
  });

  it('refuses a key no rule requires, listing the first 20 allowed keys', async () => {
    const keys = Array.from({ length: 21 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const h = await harness(
      `version: '1'\npolicies:\n  rules:\n    - { name: r, match: { tool: t }, action: allow, evidence: { requires: [${keys.join(', ')}] } }\n`,
    );
    const result = await h.service.putEvidence({
      session_id: 's',
      tool_name: 't',
      evidence_key: 'nope',
      evidence_data: 1,
    });
    expect(result).toEqual({
      type: 'Refused',
      body: {
        error: 'evidence_key_not_in_policy_allowlist',
        code: 'evidence_key_not_in_policy_allowlist',
        key: 'nope',
        allowed_keys: keys.slice(0, 20),
        allowed_key_count: 21,
        truncated: true,
      },
    });
  });

  it('refuses every key when no rule requires evidence', async () => {
    const h = await harness("version: '1'\n");
    const result = await h.service.putEvidence({
      session_id: 's',
      tool_name: 't',
      evidence_key: 'k',
      evidence_data: 1,
    });
    expect(result).toMatchObject({
      type: 'Refused',
      body: { allowed_keys: [], allowed_key_count: 0, truncated: false },
    });
  });

  it('refuses evidence data over the cap at n + 1', async () => {
    const h = await harness(GROUNDED, { limits: { maxEvidenceBytes: 7 } });
    const put = (data: unknown) =>
      h.service.putEvidence({
        session_id: 's',
        tool_name: 't',
        evidence_key: 'recipient',
        evidence_data: data,
      });
    expect((await put('x'.repeat(5))).type).toBe('Stored'); // "xxxxx" = 7 bytes
    expect(await put('x'.repeat(6))).toMatchObject({ type: 'Error', body: { error: 'evidence_too_large' } });
  });

  it('answers 503 sideband_shutting_down once the store is closing', async () => {
    const h = await harness(GROUNDED);
    h.evidence.close();
    const result = await h.service.putEvidence({
      session_id: 's',
      tool_name: 't',
      evidence_key: 'recipient',
      evidence_data: 1,
    });
    expect(result).toMatchObject({ type: 'Error', body: { error: 'sideband_shutting_down' } });
  });

  it('answers 503 without an evidence store', async () => {
    const h = await harness(GROUNDED, { evidence: false });
    const result = await h.service.putEvidence({
      session_id: 's',
      tool_name: 't',
      evidence_key: 'recipient',
      evidence_data: null,
    });
    expect(result).toMatchObject({ type: 'Error', body: { error: 'evidence_unavailable' } });
  });
});
