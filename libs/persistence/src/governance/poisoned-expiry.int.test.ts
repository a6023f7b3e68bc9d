/**
 * Issue 15, item 1: a tool name of 1,024 astral characters (4,096 UTF-8 bytes) was let in by a limit
 * that counted characters. Its audit record could never be stored (a btree entry holds ~2,700 bytes),
 * so /audit answered 500 for it and the expiry sweep failed on it at every run: nothing expired again
 * and the backlog stayed full across restarts. Now the name is refused at /evaluate, and an entry
 * already in the backlog (left by an earlier version) is expired under a quarantined record without
 * holding up the rest.
 */
import {
  GovernanceService,
  loadPolicy,
  MemoryToolBaselineStore,
  type EvaluateResult,
} from '@helios/governance';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { findAuditRecord } from './audit-record-row.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';
import { PgAuditSink } from './pg-audit-sink.js';
import { PgLimitStore } from './pg-limit-store.js';
import { PgPendingEvaluationStore } from './pg-pending-evaluation-store.js';

const POLICY = "version: '1'\nsdk: { enabled: true, evaluation_ttl: 1m }\n";
/** 1,024 astral characters (4,096 bytes), varied so that PostgreSQL cannot compress the index entry. */
const ASTRAL_NAME = astralText(1_024);

function astralText(length: number): string {
  let seed = 1;
  let text = '';
  for (let i = 0; i < length; i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    text += String.fromCodePoint(0x2_0000 + (seed % 0xa6d0)); // CJK Extension B: four bytes each
  }
  return text;
}

function evaluationId(result: EvaluateResult): string {
  if (result.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body.evaluation_id;
}

describe.each(databaseTargets)('a poisoned evaluation on PostgreSQL (%s)', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  const clock = { ms: Date.UTC(2026, 0, 1), now: () => clock.ms };
  const sinks: PgAuditSink[] = [];

  async function start(): Promise<{ service: GovernanceService; pending: PgPendingEvaluationStore }> {
    const dataSource = await db.open(4);
    const audit = new PgAuditSink(dataSource, { logger: { warn: vi.fn(), error: vi.fn() } });
    sinks.push(audit);
    const pending = new PgPendingEvaluationStore(dataSource);
    const service = await GovernanceService.create({
      policy: loadPolicy(POLICY, { env: {} }).policy,
      stores: {
        limits: new PgLimitStore(dataSource),
        pending,
        approvals: new PgApprovalTicketStore(dataSource),
        audit,
        baselines: new MemoryToolBaselineStore(),
      },
      clock,
    });
    return { service, pending };
  }

  afterAll(async () => {
    for (const sink of sinks) await sink.close();
  });

  it('refuses the 4,096-byte tool name at /evaluate, by its byte count', async () => {
    const { service } = await start();
    expect(await service.evaluate({ tool: { name: ASTRAL_NAME } })).toMatchObject({
      type: 'Error',
      body: {
        error: 'invalid_request',
        issues: [{ path: 'tool.name', message: 'expected at most 1024 bytes (UTF-8), got 4096' }],
      },
    });
    // At the ceiling exactly: 256 astral characters are 1,024 bytes, and their record stores.
    const atCeiling = evaluationId(await service.evaluate({ tool: { name: astralText(256) } }));
    expect(await service.audit({ evaluation_id: atCeiling, status: 'success' })).toMatchObject({
      type: 'Finalized',
    });
  });

  it('an entry an earlier version let in is quarantined by the sweep, and the others still expire', async () => {
    const { service, pending } = await start();
    const before = evaluationId(await service.evaluate({ tool: { name: 'chat' } }));
    const poisoned = evaluationId(await service.evaluate({ tool: { name: 'chat' }, arguments: { q: 'x' } }));
    const after = evaluationId(await service.evaluate({ tool: { name: 'chat' } }));
    // What an earlier version admitted: the same entry, under the name the byte ceiling now refuses.
    await db.dataSource.query(
      `UPDATE "pending_evaluations" SET "payload" = jsonb_set("payload", '{toolName}', to_jsonb($1::text))
       WHERE "evaluation_id" = $2`,
      [ASTRAL_NAME, poisoned],
    );

    clock.ms += 2 * 60_000;
    const report = await service.sweep();
    expect(report).toMatchObject({
      expired: 3,
      quarantined: [{ evaluationId: poisoned, reason: 'the audit record could not be stored as it was' }],
      failed: 0,
    });
    expect(await pending.backlog()).toEqual({ count: 0, bytes: 0 });
    for (const id of [before, poisoned, after]) {
      expect(await service.audit({ evaluation_id: id, status: 'success' })).toMatchObject({
        type: 'Error',
        body: { error: 'evaluation_expired' },
      });
    }

    const rows = (await db.dataSource.query(
      `SELECT "id", "tool_name" FROM "audit_records" WHERE "record_kind" = 'evaluation_expired'
       AND "evidence_chain" ? 'quarantine'`,
    )) as { id: string; tool_name: string }[];
    expect(rows).toHaveLength(1);
    const record = await findAuditRecord(db.dataSource, rows[0]?.id ?? '');
    expect(record).toMatchObject({
      toolName: ASTRAL_NAME.slice(0, 512), // 256 characters of two UTF-16 units, 1,024 bytes
      toolInput: {},
      metadata: null,
      evidenceChain: {
        sideband: { unreported: true },
        quarantine: {
          reason: 'the audit record could not be stored as it was',
          original: { tool_name_bytes: 4_096 },
          dropped: ['tool_input', 'metadata'],
        },
      },
    });
    const quarantine = (record?.evidenceChain as { quarantine: { error: string } }).quarantine;
    expect(quarantine.error).toMatch(/index row size/);
  });
});
