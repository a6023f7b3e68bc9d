/**
 * The real GovernanceService over the PostgreSQL stores: proof that they fit the engine, including
 * across a restart (a new DataSource and service over the same database) and across two "processes".
 */
import {
  GovernanceService,
  loadPolicy,
  MemoryToolBaselineStore,
  type AuditResult,
  type EvaluateRequest,
} from '@helios/governance';
import { decidedBody, ManualClock } from '@helios/governance/testing';
import { type DataSource } from 'typeorm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { findAuditRecord } from './audit-record-row.js';
import { LimitAuthority } from './limit-authority/limit-authority.js';
import { PgApprovalTicketStore } from './pg-approval-ticket-store.js';
import { PgAuditSink } from './pg-audit-sink.js';
import { PgLimitStore } from './pg-limit-store.js';
import { PgPendingEvaluationStore } from './pg-pending-evaluation-store.js';
import { recoverAuditRecords } from './recover-audit-records.js';

const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: no-deletes, match: { tool: rm }, action: deny }
    - { name: anything, match: {}, action: allow }
budgets:
  - name: pot
    limit: 50
    currency: USD
    window: 1h
    contributors: [ { match: { tool: pay }, field: amount } ]
  - name: glass
    limit: 10
    currency: USD
    window: 1h
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: 5m }
    contributors: [ { match: { tool: big }, field: amount } ]
`;

interface Process {
  readonly service: GovernanceService;
  readonly limits: PgLimitStore;
  readonly audit: PgAuditSink;
  readonly dataSource: DataSource;
}

function recordId(result: AuditResult): string {
  return (result.body as { audit_record_id?: string }).audit_record_id ?? '';
}

/** Each database, with limits decided on the shared path only and with a local limit authority. */
const targets = databaseTargets.flatMap(
  ([name, makeDatabase]) =>
    [
      [name, 'shared path', makeDatabase],
      [name, 'local authority', makeDatabase],
    ] as const,
);

describe.each(targets)(
  'GovernanceService over the PostgreSQL stores (%s, %s)',
  (_name, mode, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);
    const clock = new ManualClock();
    const processes: Process[] = [];
    const authorities: LimitAuthority[] = [];

    /** One API process: its own pool, stores and service over the shared database. */
    async function start(): Promise<Process> {
      const dataSource = await db.open(10);
      const authority =
        mode === 'local authority' ? await LimitAuthority.start(dataSource, { clock }) : undefined;
      if (authority !== undefined) authorities.push(authority);
      const limits = new PgLimitStore(dataSource, { authority });
      const audit = new PgAuditSink(dataSource, {
        logger: { warn: vi.fn(), error: vi.fn() },
        flushIntervalMs: 10,
      });
      const service = await GovernanceService.create({
        policy: loadPolicy(POLICY, { env: {} }).policy,
        stores: {
          limits,
          pending: new PgPendingEvaluationStore(dataSource, { authority }),
          approvals: new PgApprovalTicketStore(dataSource),
          audit,
          baselines: new MemoryToolBaselineStore(),
        },
        clock,
      });
      const started = { service, limits, audit, dataSource };
      processes.push(started);
      return started;
    }

    afterAll(async () => {
      for (const authority of authorities) await authority.close();
      for (const p of processes) await p.audit.close();
    });

    const pay = (amount: number, tool = 'pay'): EvaluateRequest => ({
      tool: { name: tool },
      arguments: { amount },
    });

    it('the record is in audit_records when /audit answers, even if the sink never flushes', async () => {
      const { service, dataSource } = await start();
      // A sink that never flushes stands for a process killed inside its flush window.
      const doomed = new PgAuditSink(dataSource, {
        logger: { warn: vi.fn(), error: vi.fn() },
        flushIntervalMs: 3_600_000,
      });
      const crashed = await GovernanceService.create({
        policy: loadPolicy(POLICY, { env: {} }).policy,
        stores: {
          limits: new PgLimitStore(dataSource),
          pending: new PgPendingEvaluationStore(dataSource),
          approvals: new PgApprovalTicketStore(dataSource),
          audit: doomed,
          baselines: new MemoryToolBaselineStore(),
        },
        clock,
      });
      const decided = decidedBody(await crashed.evaluate({ tool: { name: 'ls' } }));
      const finalized = await crashed.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
      expect(finalized.type).toBe('Finalized');
      const id = recordId(finalized);
      // Written by the finalization statement itself, not buffered: nothing is left to recover.
      expect(doomed.queued).toBe(0);
      expect(await findAuditRecord(db.dataSource, id)).toMatchObject({
        recordKind: 'tool_call',
        toolName: 'ls',
      });
      expect(await recoverAuditRecords(db.dataSource)).toBe(0);
      // The service's replay answers from the tombstone.
      expect((await service.audit({ evaluation_id: decided.evaluation_id, status: 'success' })).type).toBe(
        'Replayed',
      );
    });

    it('recovery writes a record an earlier version left only in its tombstone (write-ahead copy)', async () => {
      const { service } = await start();
      const decided = decidedBody(await service.evaluate({ tool: { name: 'ls' } }));
      const finalized = await service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
      const id = recordId(finalized);
      const record = await findAuditRecord(db.dataSource, id);
      // Recreate what the previous write path left after a crash: the record in the tombstone only.
      const orphanId = '00000000-0000-7000-8000-0000000000a1';
      await db.dataSource.query(
        `INSERT INTO "evaluation_tombstones"
         ("evaluation_id", "audit_record_id", "finalized_by", "payload_hash", "expires_at_ms", "record")
       VALUES ('orphan-eval', $1, 'audit', 'h', $2, $3::jsonb)`,
        [orphanId, clock.now() + 60_000, JSON.stringify({ ...record, id: orphanId })],
      );
      expect(await findAuditRecord(db.dataSource, orphanId)).toBeUndefined();
      expect(await recoverAuditRecords(db.dataSource)).toBe(1);
      expect(await findAuditRecord(db.dataSource, orphanId)).toMatchObject({ id: orphanId, toolName: 'ls' });
      expect(await recoverAuditRecords(db.dataSource)).toBe(0);
    });

    it('evaluate → audit → replay: the record, the charge and the ledger row land in PostgreSQL', async () => {
      const { service, audit, limits } = await start();
      const decided = decidedBody(await service.evaluate(pay(20)));
      expect(decided.decision).toBe('allow');
      const finalized = await service.audit({
        evaluation_id: decided.evaluation_id,
        status: 'success',
        result: { ok: 1 },
      });
      expect(finalized.type).toBe('Finalized');
      const id = recordId(finalized);
      await audit.flush();
      expect(await findAuditRecord(db.dataSource, id)).toMatchObject({
        recordKind: 'tool_call',
        policyDecision: 'allow',
        toolName: 'pay',
        upstreamResponse: { ok: 1 },
        evidenceChain: { budgets: [expect.objectContaining({ name: 'pot', spent: 20, kind: 'spend' })] },
      });
      expect(
        await service.audit({ evaluation_id: decided.evaluation_id, status: 'success', result: { ok: 1 } }),
      ).toMatchObject({ type: 'Replayed', body: { already_finalized: true, audit_record_id: id } });
      expect(await limits.ledger({ budgetName: 'pot' })).toMatchObject([
        { amount: 20_000_000n, auditRecordId: id },
      ]);

      // A block is terminal at /evaluate and its record is on disk before the response.
      const denied = decidedBody(await service.evaluate({ tool: { name: 'rm' } }));
      expect(denied.decision).toBe('deny');
      expect(await service.audit({ evaluation_id: denied.evaluation_id, status: 'success' })).toMatchObject({
        type: 'Replayed',
        body: { finalized_by: 'evaluate' },
      });
    });

    it('after a restart, an unaudited evaluation expires into evaluation_expired and frees its hold', async () => {
      const before = await start();
      const decided = decidedBody(await before.service.evaluate(pay(30)));
      expect(decided.limits?.budgets?.[0]).toMatchObject({ name: 'pot', spent: 20, allowed: true });
      // While held, the 30 counts: another 1 would overshoot 50.
      expect(decidedBody(await before.service.evaluate(pay(1))).decision).toBe('budget_exceeded');

      // "kill -9": the first process just stops; a new one over the same database takes over.
      clock.ms += 10 * 60_000;
      const after = await start();
      expect((await after.service.sweep()).expired).toBe(1);
      expect(
        await after.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
      ).toMatchObject({
        type: 'Error',
        body: { error: 'evaluation_expired' },
      });
      const expired = (await db.dataSource.query(
        `SELECT id FROM audit_records WHERE record_kind = 'evaluation_expired'`,
      )) as { id: string }[];
      expect(expired).toHaveLength(1);
      expect(decidedBody(await after.service.evaluate(pay(30))).decision).toBe('allow');
    });

    it('a break-glass ticket resolved by one process is honoured by the other; the charge is approved_overage', async () => {
      const [a, b] = [await start(), await start()];
      const pending = decidedBody(await a.service.evaluate(pay(15, 'big')));
      expect(pending.decision).toBe('require_approval');
      const ticketId = pending.approval?.id ?? '';
      expect(
        await a.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' }),
      ).toMatchObject({
        type: 'Error',
        body: { error: 'approval_unresolved' },
      });
      const [first, second] = await Promise.all([
        b.service.resolveApproval(ticketId, { resolution: 'approved', resolved_by: 'alice' }),
        a.service.resolveApproval(ticketId, { resolution: 'denied', resolved_by: 'bob' }),
      ]);
      expect([first.type, second.type].sort()).toEqual(['Error', 'Resolved']);
      const approved = first.type === 'Resolved';
      const finalized = await a.service.audit({ evaluation_id: pending.evaluation_id, status: 'success' });
      expect(finalized.type).toBe('Finalized');
      expect(await a.limits.ledger({ budgetName: 'glass' })).toMatchObject([
        { amount: 15_000_000n, kind: approved ? 'approved_overage' : 'spend' },
      ]);
    });

    it('an evaluation finalized by the other process meanwhile: this one answers as a retry would', async () => {
      const [a, b] = [await start(), await start()];
      // Admitted by A (which keeps a copy for its own /audit), then audited by B.
      const decided = decidedBody(await a.service.evaluate({ tool: { name: 'ls' } }));
      const won = await b.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
      expect(won.type).toBe('Finalized');
      expect(
        await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
      ).toMatchObject({
        type: 'Replayed',
        body: { audit_record_id: recordId(won), already_finalized: true },
      });
      expect(await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'error' })).toMatchObject({
        type: 'Error',
        body: { error: 'evaluation_conflict' },
      });
      const count = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM "audit_records" WHERE "id" = $1`,
        [recordId(won)],
      );
      expect(count).toEqual([{ n: 1 }]);
    });

    it("an /audit answered from this process's copy conflicts when another process latched another payload", async () => {
      clock.ms += 2 * 3_600_000; // the earlier tests' spend has left the window
      const a = await start();
      // Admitted by A, which keeps a copy with its holds for its own first /audit.
      const decided = decidedBody(await a.service.evaluate(pay(1)));
      expect(decided.decision).toBe('allow');
      // Another process's /audit committed the holds for a different payload, then died before finalizing.
      await db.dataSource.query(
        `INSERT INTO "limit_commits" ("reservation_id", "committed_at_ms", "snapshots") VALUES ($1, $2, '[]')`,
        [decided.evaluation_id, clock.ms],
      );
      await db.dataSource.query(
        `UPDATE "pending_evaluations" SET "commit_latch" = '{"payloadHash":"another","actualAmount":null}'
       WHERE "evaluation_id" = $1`,
        [decided.evaluation_id],
      );
      expect(
        await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
      ).toMatchObject({
        type: 'Error',
        body: { error: 'evaluation_conflict' },
      });
      const rows = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM "pending_evaluations" WHERE "evaluation_id" = $1`,
        [decided.evaluation_id],
      );
      expect(rows).toEqual([{ n: 1 }]);
      // The retry reads the row (the copy was handed out once) and reports the same conflict.
      expect(
        await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
      ).toMatchObject({
        type: 'Error',
        body: { error: 'evaluation_conflict' },
      });
    });

    it('200 concurrent evaluate+audit pairs over two processes against a pot that admits 50 charge exactly 50', async () => {
      clock.ms += 2 * 3_600_000; // the earlier tests' spend has left the window
      const [a, b] = [await start(), await start()];
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const service = (i % 2 ? a : b).service;
          const decided = decidedBody(await service.evaluate(pay(1)));
          if (decided.decision !== 'allow') return decided.decision;
          const finalized = await (i % 3 ? b : a).service.audit({
            evaluation_id: decided.evaluation_id,
            status: 'success',
          });
          return finalized.type === 'Finalized' ? 'charged' : `audit ${finalized.type}`;
        }),
      );
      expect(outcomes.filter((o) => o === 'charged')).toHaveLength(50);
      expect(outcomes.filter((o) => o === 'budget_exceeded')).toHaveLength(150);
      const since = (await a.limits.ledger({ budgetName: 'pot' })).filter(
        (row) => row.timestampMs === clock.ms,
      );
      expect(since.reduce((sum, row) => sum + row.amount, 0n)).toBe(50_000_000n);
    });
  },
);
