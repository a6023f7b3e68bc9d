/** POST /install-scan: observational without rules; first match wins over name, source and metadata. */
import { describe, expect, it } from 'vitest';
import { harness } from '../testing/service-harness.js';

const OPEN = "version: '1'\nsdk: { enabled: true }\n";

describe('install scans', () => {
  it('is observational without an install block', async () => {
    const h = await harness(OPEN);
    const result = await h.service.installScan({
      package: { name: 'left-pad', version: '1.3.0', source: 'npm' },
    });
    expect(result).toEqual({
      type: 'Scanned',
      body: {
        evaluation_id: 'id-0001',
        decision: 'allow',
        reason: 'no install-time rules defined',
        matched_rule: null,
        matched_rule_index: null,
      },
    });
    expect(h.audit.records[0]?.record).toMatchObject({
      recordKind: 'install_scan',
      toolName: 'install:npm:left-pad',
      blockReason: null,
    });
    expect(await h.service.audit({ evaluation_id: 'id-0001', status: 'success' })).toMatchObject({
      type: 'Replayed',
      body: { finalized_by: 'evaluate' },
    });
  });

  it('matches name globs, source and metadata; denies with install_denied', async () => {
    const h = await harness(`
version: '1'
policies:
  install:
    default: deny
    rules:
      - { name: block-evil, match: { name: "evil-*" }, action: deny_install, feedback: { message: nope, suggestion: pick another } }
      - { match: { source: npm, metadata: { agent_id: main } }, action: allow }
`);
    expect((await h.service.installScan({ package: { name: 'evil-x' } })).body).toMatchObject({
      decision: 'deny',
      reason: 'Matched "block-evil" → deny_install',
      matched_rule_index: 0,
      feedback: { message: 'nope', suggestion: 'pick another' },
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      policyDecision: 'deny',
      blockReason: 'install_denied',
      toolName: 'install:pkg:evil-x',
    });
    expect(
      (await h.service.installScan({ package: { name: 'ok', source: 'npm' }, agent_id: 'main' })).body,
    ).toMatchObject({
      decision: 'allow',
      matched_rule: null,
      matched_rule_index: 1,
    });
    expect((await h.service.installScan({ package: { name: 'ok', source: 'pip' } })).body).toMatchObject({
      decision: 'deny',
      reason: 'No matching install rule; default deny',
      feedback: { message: 'No matching install rule; default deny' },
    });
    expect(
      await h.service.installScan({ package: { name: 'a' }, metadata: { agent_id: 'x' } }),
    ).toMatchObject({ type: 'Error', body: { error: 'reserved_metadata_key', key: 'agent_id' } });
    expect(
      await h.service.installScan({ package: { name: 'a' }, metadata: { a: 'x'.repeat(5000) } }),
    ).toMatchObject({ type: 'Error', body: { error: 'metadata_too_large' } });
  });
});
