import { describe, expect, it } from 'vitest';
import { decidedBody, harness } from '../testing/service-harness.js';

const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: gate, match: { tool: gated }, action: require_approval, approval: { channel: dashboard, timeout: 1m } }
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
`;

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? { k: value } : [value];
  return value;
}

describe('every in-process entry point holds a request to the listener’s nesting cap', () => {
  const tooDeep = { type: 'Error', body: { error: 'json_too_deep', max_depth: 8 } };

  it('at the cap the call goes through; one level more is json_too_deep, on every door', async () => {
    const h = await harness(POLICY, { limits: { maxJsonDepth: 8 } });
    // The request is level 1, `arguments` level 2: 6 more levels inside reach the cap exactly.
    expect((await h.service.evaluate({ tool: { name: 'read' }, arguments: { a: nested(6) } })).type).toBe(
      'Decided',
    );
    expect(await h.service.evaluate({ tool: { name: 'read' }, arguments: { a: nested(7) } })).toEqual(
      tooDeep,
    );
    const deep = nested(8);
    expect(await h.service.audit({ evaluation_id: 'e', status: 'success', result: deep })).toEqual(tooDeep);
    expect(await h.service.installScan({ package: { name: 'p' }, metadata: { m: deep } })).toEqual(tooDeep);
    expect(
      await h.service.resolveApproval('t', { resolution: 'approved', resolved_by: 'x', deep } as never),
    ).toEqual(tooDeep);
    expect(
      await h.service.putEvidence({
        session_id: 's',
        tool_name: 't',
        evidence_key: 'recipient',
        evidence_data: deep,
      }),
    ).toEqual(tooDeep);
    expect(await h.service.putContext({ session_id: 's', key: 'k', value: deep })).toEqual(tooDeep);
  });

  it('a value nested past the stack limit, or cyclic, is refused, never a rejected promise', async () => {
    const h = await harness(POLICY);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const value of [deep, cyclic]) {
      await expect(
        h.service.evaluate({ tool: { name: 'read' }, arguments: { value } }),
      ).resolves.toMatchObject({
        body: { error: 'json_too_deep', max_depth: 256 },
      });
    }
  });
});

describe('/audit duration_ms', () => {
  it.each([
    [-5, 'duration_ms -5 is not a duration; recorded as null'],
    [Number.NaN, 'duration_ms NaN is not a duration; recorded as null'],
    [Number.POSITIVE_INFINITY, 'duration_ms Infinity is not a duration; recorded as null'],
    ['12', 'duration_ms "12" is not a duration; recorded as null'],
  ])('%s is accepted and recorded as null with a note', async (duration, note) => {
    const h = await harness(POLICY);
    const id = decidedBody(await h.service.evaluate({ tool: { name: 'read' } })).evaluation_id;
    const answer = await h.service.audit({
      evaluation_id: id,
      status: 'success',
      duration_ms: duration as number,
    });
    expect(answer.type).toBe('Finalized');
    const record = h.audit.records.at(-1)?.record;
    expect(record).toMatchObject({ upstreamLatencyMs: null, evidenceChain: { notes: [note] } });
  });

  it('a real duration is recorded as sent, with no note', async () => {
    const h = await harness(POLICY);
    const id = decidedBody(await h.service.evaluate({ tool: { name: 'read' } })).evaluation_id;
    await h.service.audit({ evaluation_id: id, status: 'success', duration_ms: 0.25 });
    const record = h.audit.records.at(-1)?.record;
    expect(record?.upstreamLatencyMs).toBe(0.25);
    expect(record?.evidenceChain?.['notes']).toBeUndefined();
  });
});
