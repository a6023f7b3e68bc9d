/**
 * Every string that becomes a key or an index entry is held to a ceiling in UTF-8 bytes, at every
 * entry point: at the ceiling it passes, one byte over it is 400 `invalid_request` naming the field.
 */
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_MAX_BYTES as MAX } from '../config/identifier-limits.js';
import { harness } from '../testing/service-harness.js';

const OPEN = "version: '1'\nsdk: { enabled: true }\n";
const GROUNDED = `${OPEN}policies:\n  rules:\n    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }\n`;

/** Exactly `bytes` UTF-8 bytes, mostly four-byte characters (two UTF-16 units each). */
function textOfBytes(bytes: number): string {
  return '😀'.repeat(Math.floor(bytes / 4)) + 'a'.repeat(bytes % 4);
}

function refused(path: string, bytes: number) {
  return {
    type: 'Error',
    body: {
      error: 'invalid_request',
      issues: [{ path, message: `expected at most ${MAX[keyOf(path)]} bytes (UTF-8), got ${bytes}` }],
    },
  };
}

const PATH_LIMITS: Record<string, keyof typeof MAX> = {
  origin: 'origin',
  'tool.name': 'toolName',
  agent_id: 'agentId',
  session_id: 'callerSessionId',
  'metadata.sender_id': 'senderId',
  'package.name': 'packageName',
  'package.source': 'packageSource',
};

function keyOf(path: string): keyof typeof MAX {
  return PATH_LIMITS[path] ?? 'sdkSessionId';
}

describe('byte ceilings of /evaluate', () => {
  it.each([
    ['origin', MAX.origin, (v: string) => ({ origin: v })],
    ['tool.name', MAX.toolName, () => ({})],
    ['agent_id', MAX.agentId, (v: string) => ({ agent_id: v })],
    ['session_id', MAX.callerSessionId, (v: string) => ({ session_id: v })],
    ['metadata.sender_id', MAX.senderId, (v: string) => ({ metadata: { sender_id: v } })],
  ] as const)('%s: %d bytes pass, one more is refused', async (path, max, extra) => {
    const h = await harness(OPEN);
    const call = (value: string) => ({
      tool: { name: path === 'tool.name' ? value : 'read' },
      ...extra(value),
    });
    expect((await h.service.evaluate(call(textOfBytes(max)))).type).toBe('Decided');
    expect(await h.service.evaluate(call(textOfBytes(max + 1)))).toMatchObject(refused(path, max + 1));
  });

  it('counts bytes, not characters: 1,024 ASCII characters pass, 1,024 astral ones do not', async () => {
    const h = await harness(OPEN);
    expect((await h.service.evaluate({ tool: { name: 'a'.repeat(1_024) } })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: { name: '😀'.repeat(1_024) } })).toMatchObject(
      refused('tool.name', 4_096),
    );
  });

  it('counts the stored form: a U+0000 becomes U+FFFD (three bytes) before it is measured', async () => {
    const h = await harness(OPEN);
    expect(await h.service.evaluate({ tool: { name: `${'a'.repeat(1_023)}\u0000` } })).toMatchObject(
      refused('tool.name', 1_026),
    );
  });

  it('metadata keys: 256 bytes pass, 257 are refused', async () => {
    const h = await harness(OPEN);
    const call = (key: string) => ({ tool: { name: 'read' }, metadata: { [key]: 1 } });
    expect((await h.service.evaluate(call('k'.repeat(MAX.metadataKey)))).type).toBe('Decided');
    expect(await h.service.evaluate(call('k'.repeat(MAX.metadataKey + 1)))).toMatchObject({
      type: 'Error',
      body: {
        error: 'invalid_request',
        issues: [{ path: 'metadata', message: /bytes \(UTF-8\), got 257$/ }],
      },
    });
  });

  it('lists every field over its ceiling at once', async () => {
    const h = await harness(OPEN);
    const result = await h.service.evaluate({
      origin: 'o'.repeat(MAX.origin + 1),
      tool: { name: 't'.repeat(MAX.toolName + 1) },
      metadata: { sender_id: 's'.repeat(MAX.senderId + 1) },
    });
    expect(result.body).toMatchObject({
      issues: [{ path: 'origin' }, { path: 'tool.name' }, { path: 'metadata.sender_id' }],
    });
  });
});

describe('byte ceilings of the other entry points', () => {
  it('/install-scan: package name and source', async () => {
    const h = await harness(OPEN);
    const scan = (name: string, source?: string) => h.service.installScan({ package: { name, source } });
    expect((await scan(textOfBytes(MAX.packageName), textOfBytes(MAX.packageSource))).type).toBe('Scanned');
    expect(await scan(textOfBytes(MAX.packageName + 1))).toMatchObject(
      refused('package.name', MAX.packageName + 1),
    );
    expect(await scan('left-pad', textOfBytes(MAX.packageSource + 1))).toMatchObject(
      refused('package.source', MAX.packageSource + 1),
    );
  });

  it('/audit: the evaluation id; an oversized evidence key is dropped softly, never the record', async () => {
    const h = await harness(GROUNDED);
    expect(
      await h.service.audit({ evaluation_id: textOfBytes(MAX.evaluationId + 1), status: 'success' }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'invalid_request', issues: [{ path: 'evaluation_id' }] },
    });
    // Within the ceilings the call goes on to the engine (which does not know the id).
    expect(
      await h.service.audit({ evaluation_id: textOfBytes(MAX.evaluationId), status: 'success' }),
    ).toMatchObject({ type: 'Error', body: { error: 'evaluation_unknown' } });
    const decided = await h.service.evaluate({ session_id: 's', tool: { name: 'lookup' } });
    if (decided.type !== 'Decided') throw new Error('expected a decision');
    expect(
      await h.service.audit({
        evaluation_id: decided.body.evaluation_id,
        status: 'success',
        evidence: [
          { evidence_key: 'recipient', evidence_data: 1 },
          { evidence_key: textOfBytes(MAX.evidenceKey + 1), evidence_data: 1 },
        ],
      }),
    ).toMatchObject({
      type: 'Finalized',
      body: {
        evidence: [
          { evidence_key: 'recipient', stored: true },
          { stored: false, reason: 'key_not_in_policy_allowlist' },
        ],
      },
    });
  });

  it('approval resolution: the ticket id', async () => {
    const h = await harness(OPEN);
    expect(
      await h.service.resolveApproval(textOfBytes(MAX.ticketId + 1), {
        resolution: 'approved',
        resolved_by: 'ops',
      }),
    ).toMatchObject({ type: 'Error', body: { error: 'invalid_request', issues: [{ path: 'id' }] } });
    expect(
      await h.service.resolveApproval(textOfBytes(MAX.ticketId), {
        resolution: 'approved',
        resolved_by: 'ops',
      }),
    ).toMatchObject({ type: 'Error', body: { error: 'ticket_not_found' } });
  });

  it('/evidence, /context and session state: session ids and keys', async () => {
    const h = await harness(OPEN, { evidence: true });
    const long = textOfBytes(MAX.sdkSessionId + 1);
    expect(
      await h.service.putEvidence({ session_id: long, tool_name: 't', evidence_key: 'k', evidence_data: 1 }),
    ).toMatchObject({ type: 'Error', body: { error: 'invalid_request', issues: [{ path: 'session_id' }] } });
    expect(
      await h.service.putEvidence({
        session_id: 's',
        tool_name: textOfBytes(MAX.toolName + 1),
        evidence_key: textOfBytes(MAX.evidenceKey + 1),
        evidence_data: 1,
      }),
    ).toMatchObject({
      type: 'Error',
      body: { error: 'invalid_request', issues: [{ path: 'tool_name' }, { path: 'evidence_key' }] },
    });
    expect(
      await h.service.putContext({ session_id: 's', key: textOfBytes(MAX.contextKey + 1), value: 1 }),
    ).toMatchObject({ type: 'Error', body: { error: 'invalid_request', issues: [{ path: 'key' }] } });
    expect(
      (await h.service.putContext({ session_id: 's', key: textOfBytes(MAX.contextKey), value: 1 })).type,
    ).toBe('Stored');
    expect(await h.service.sessionState(long)).toMatchObject({
      type: 'Error',
      body: { error: 'invalid_request', issues: [{ path: 'session_id' }] },
    });
    expect((await h.service.sessionState(textOfBytes(MAX.sdkSessionId))).type).toBe('State');
  });
});
