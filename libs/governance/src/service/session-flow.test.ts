import { describe, expect, it } from 'vitest';
import { harness } from '../testing/service-harness.js';
import { type EvaluateResult } from './results.js';

const GROUNDED = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
`;

function evaluationId(result: EvaluateResult): string {
  if (result.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body.evaluation_id;
}

const evidence = (session: string, data: unknown = { to: 'a' }, ttl?: number) => ({
  session_id: session,
  tool_name: 'lookup',
  evidence_key: 'recipient',
  evidence_data: data,
  ...(ttl === undefined ? {} : { ttl_seconds: ttl }),
});

describe('POST /context and GET /session/:id/state (SDK scope)', () => {
  it('stores context (last write wins, any JSON value) and reads it back with evidence and completed tools', async () => {
    const h = await harness(GROUNDED);
    expect(await h.service.putContext({ session_id: 's1', key: 'user', value: { id: 7 } })).toEqual({
      type: 'Stored',
      body: { ok: true },
    });
    await h.service.putContext({ session_id: 's1', key: 'user', value: { id: 8 } });
    await h.service.putContext({ session_id: 's1', key: 'nothing', value: null });
    await h.service.putEvidence(evidence('s1', { to: 'a' }, 60));
    const start = h.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const [tool, status] of [
      ['lookup', 'success'],
      ['fetch', 'error'],
      ['aardvark', 'success'],
      ['lookup', 'error'], // a later failure never revokes a success; the time is the latest call's
      ['skipped', 'not_executed'], // did not run: not a call
    ] as const) {
      h.clock.advance(1_000);
      const id = evaluationId(await h.service.evaluate({ session_id: 's1', tool: { name: tool } }));
      await h.service.audit({ evaluation_id: id, status });
    }
    expect(await h.service.sessionState('s1')).toEqual({
      type: 'State',
      body: {
        session_id: 's1',
        evidence: {
          recipient: {
            evidence_key: 'recipient',
            data: { to: 'a' },
            tool_name: 'lookup',
            timestamp: iso(start),
            expires_at: iso(start + 60_000),
          },
        },
        context: { user: { id: 8 }, nothing: null },
        completed_tools: [
          { tool_name: 'lookup', timestamp: iso(start + 4_000), succeeded: true },
          { tool_name: 'fetch', timestamp: iso(start + 2_000), succeeded: false },
          { tool_name: 'aardvark', timestamp: iso(start + 3_000), succeeded: true },
        ],
      },
    });
  });

  it('shows only unexpired evidence, and an unknown session as empty state without creating it', async () => {
    const h = await harness(GROUNDED, { limits: { maxSessions: 1 } });
    await h.service.putEvidence(evidence('s1', 1, 10));
    h.clock.advance(10_000);
    expect((await h.service.sessionState('s1')).body).toMatchObject({ evidence: {} });
    expect((await h.service.sessionState('never')).body).toEqual({
      session_id: 'never',
      evidence: {},
      context: {},
      completed_tools: [],
    });
    // Reads created nothing: the one session slot is still s1's, so s2 is refused.
    expect(await h.service.putContext({ session_id: 's2', key: 'k', value: 1 })).toMatchObject({
      type: 'Error',
      body: { error: 'session_capacity_exhausted' },
    });
  });

  it('refuses a context value over the entry cap at n + 1', async () => {
    const h = await harness(GROUNDED, { limits: { maxEvidenceBytes: 7 } });
    const put = (value: unknown) => h.service.putContext({ session_id: 's', key: 'k', value });
    expect((await put('x'.repeat(5))).type).toBe('Stored'); // "xxxxx" = 7 bytes
    expect(await put('x'.repeat(6))).toMatchObject({ type: 'Error', body: { error: 'context_too_large' } });
  });

  it('caps distinct sessions at n and n + 1, on every write path; known sessions keep writing', async () => {
    const h = await harness(GROUNDED, { limits: { maxSessions: 2 } });
    expect((await h.service.putContext({ session_id: 'a', key: 'k', value: 1 })).type).toBe('Stored');
    expect((await h.service.putEvidence(evidence('b'))).type).toBe('Stored');
    expect(await h.service.putContext({ session_id: 'c', key: 'k', value: 1 })).toMatchObject({
      type: 'Error',
      body: { error: 'session_capacity_exhausted' },
    });
    expect(await h.service.putEvidence(evidence('c'))).toMatchObject({
      type: 'Error',
      body: { error: 'session_capacity_exhausted' },
    });
    expect((await h.service.putContext({ session_id: 'a', key: 'other', value: 2 })).type).toBe('Stored');
    // At /audit the refusal is soft: the audit finalizes, the entry reports why it was not stored,
    // and the tool call is not recorded (a dependency on it reads as missing).
    const id = evaluationId(await h.service.evaluate({ session_id: 'c', tool: { name: 'lookup' } }));
    expect(
      await h.service.audit({
        evaluation_id: id,
        status: 'success',
        evidence: [{ evidence_key: 'recipient', evidence_data: 1 }],
      }),
    ).toMatchObject({
      type: 'Finalized',
      body: {
        evidence: [{ evidence_key: 'recipient', stored: false, reason: 'session_capacity_exhausted' }],
      },
    });
    expect((await h.service.sessionState('c')).body).toMatchObject({ completed_tools: [] });
  });

  it('caps the bytes of everything stored; overwriting a key counts only the difference', async () => {
    // "k" (3 bytes) + 1-character string value (3 bytes) = 6 bytes per entry.
    const h = await harness(GROUNDED, { limits: { maxSessionBytes: 12 } });
    const put = (key: string, value: string) => h.service.putContext({ session_id: 's', key, value });
    expect((await put('a', 'x')).type).toBe('Stored');
    expect((await put('b', 'x')).type).toBe('Stored');
    expect(await put('c', 'x')).toMatchObject({
      type: 'Error',
      body: { error: 'session_capacity_exhausted' },
    });
    expect((await put('a', 'y')).type).toBe('Stored');
    expect(await put('a', 'yy')).toMatchObject({
      type: 'Error',
      body: { error: 'session_capacity_exhausted' },
    });
  });

  it('answers 503 when the store is closing or absent', async () => {
    const h = await harness(GROUNDED);
    h.evidence.close();
    expect(await h.service.putContext({ session_id: 's', key: 'k', value: 1 })).toMatchObject({
      type: 'Error',
      body: { error: 'sideband_shutting_down' },
    });
    const bare = await harness(GROUNDED, { evidence: false });
    expect(await bare.service.putContext({ session_id: 's', key: 'k', value: 1 })).toMatchObject({
      type: 'Error',
      body: { error: 'evidence_unavailable' },
    });
    expect(await bare.service.sessionState('s')).toMatchObject({
      type: 'Error',
      body: { error: 'evidence_unavailable' },
    });
  });
});
