/**
 * The local limit authority over real PostgreSQL: a bucket one process uses is decided in its memory and
 * its charge lands with the call's record; a second process gets it handed back; a dead owner's buckets
 * are rebuilt from its pending evaluations, and what it decided can no longer land afterwards. After
 * every scenario the handed-back buckets' running sums equal their rows.
 */
import {
  GovernanceService,
  loadPolicy,
  MemoryToolBaselineStore,
  type CommitCharge,
  type EvaluateRequest,
} from '@helios/governance';
import { allowAllPolicy, decidedBody, ManualClock } from '@helios/governance/testing';
import { type DataSource } from 'typeorm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../../test/support/pg-databases.js';
import { PgApprovalTicketStore } from '../pg-approval-ticket-store.js';
import { PgAuditSink } from '../pg-audit-sink.js';
import { PgLimitStore } from '../pg-limit-store.js';
import { PgPendingEvaluationStore } from '../pg-pending-evaluation-store.js';
import { LimitAuthority } from './limit-authority.js';

const POLICY = allowAllPolicy(`
  - name: pot
    limit: 50
    currency: USD
    window: 1h
    contributors: [ { match: { tool: pay }, field: amount } ]
`);

/** A process whose lease is killed "dies": it does not rejoin within a test. */
const STAYS_DOWN = 3_600_000;

interface Process {
  readonly service: GovernanceService;
  readonly authority: LimitAuthority;
  readonly limits: PgLimitStore;
  readonly pending: PgPendingEvaluationStore;
  readonly dataSource: DataSource;
}

/** The pot's bucket as the service plans it (budget epoch 1: one identity all along). */
const potCharge = (amount: number): CommitCharge => ({
  family: 'budget',
  key: 'budget:pot:global',
  epoch: 1,
  amount: BigInt(amount) * 1_000_000n,
  limit: 50_000_000n,
  window: { type: 'sliding', ms: 3_600_000 },
  onBreach: 'refuse',
  senderScoped: false,
  ledger: { budgetName: 'pot', kind: 'spend', currency: 'USD' },
});

const pay = (amount: number): EvaluateRequest => ({ tool: { name: 'pay' }, arguments: { amount } });

/** Buckets whose running sums differ from their rows (owned buckets' sums are not maintained). */
const DRIFTED = `
  SELECT b."bucket_id" FROM "limit_buckets" b
  WHERE b."owner" IS NULL AND (
    b."charged" <> coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"), 0)
    OR b."charge_count" <> (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
    OR b."held" <> coalesce((SELECT sum(h."amount") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"), 0)
    OR b."hold_count" <> (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")
    -- A shared bucket's charges are rows; runs and ledger marks are an owner's alone.
    OR EXISTS (SELECT 1 FROM "limit_charge_runs" r WHERE r."bucket_id" = b."bucket_id")
           OR EXISTS (SELECT 1 FROM "limit_charge_journal" j WHERE b."bucket_id" = ANY(j."bucket_ids"))
    OR b."ledger_mark" IS NOT NULL)`;

describe.each(databaseTargets)('LimitAuthority on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  const started: Process[] = [];
  const sinks: PgAuditSink[] = [];

  async function start(
    options: { maxChargeEntries?: number; sweepIntervalMs?: number; rejoinDelayMs?: number } = {},
  ): Promise<Process> {
    const dataSource = await db.open(6);
    const authority = await LimitAuthority.start(dataSource, { sweepIntervalMs: 60_000, clock, ...options });
    const audit = new PgAuditSink(dataSource, { logger: { warn: vi.fn(), error: vi.fn() } });
    sinks.push(audit);
    const limits = new PgLimitStore(dataSource, { authority });
    const pending = new PgPendingEvaluationStore(dataSource, { authority });
    const service = await GovernanceService.create({
      policy: loadPolicy(POLICY, { env: {} }).policy,
      stores: {
        limits,
        pending,
        approvals: new PgApprovalTicketStore(dataSource),
        audit,
        baselines: new MemoryToolBaselineStore(),
      },
      clock,
    });
    const process = { service, authority, limits, pending, dataSource };
    started.push(process);
    return process;
  }

  const potRow = async () =>
    (
      (await db.dataSource.query(
        `SELECT "owner", "charged"::text AS "charged", "held"::text AS "held", "demoted_at_ms" IS NOT NULL AS "cooled"
       FROM "limit_buckets" WHERE "bucket_key" = 'budget:pot:global'`,
      )) as { owner: string | null; charged: string; held: string; cooled: boolean }[]
    )[0];
  const chargesOf = async (reservationId: string) =>
    (
      (await db.dataSource.query(
        `SELECT "amount"::text AS "amount" FROM "limit_charge_entries" WHERE "reservation_id" = $1`,
        [reservationId],
      )) as { amount: string }[]
    ).map((row) => row.amount);

  /** A fresh hour: what earlier tests charged has left the pot's window. */
  const nextHour = () => {
    clock.ms += 2 * 3_600_000;
  };

  /** The finalization of an /audit of `evaluationId` (the pending store's own step). */
  const auditTombstone = (evaluationId: string) => ({
    evaluationId,
    auditRecordId: `r-${evaluationId}`,
    finalizedBy: 'audit' as const,
    payloadHash: 'h',
    expiresAtMs: clock.ms + 60_000,
  });

  /** A commit decided in `p`'s memory whose finalization has not run yet (as between an /audit's two steps). */
  async function commitInMemory(p: Process, evaluationId: string, amount: number): Promise<void> {
    const context = {
      auditRecordId: `r-${evaluationId}`,
      toolName: 'pay',
      origin: 'sdk',
      latch: { evaluationId, value: { payloadHash: 'h', actualAmount: null } },
    };
    await p.limits.commit(evaluationId, [potCharge(amount)], context, clock.ms);
  }

  afterAll(async () => {
    for (const p of started) await p.authority.close();
    for (const sink of sinks) await sink.close();
    expect(await db.dataSource.query(DRIFTED)).toEqual([]);
  });

  it('decides a bucket it uses alone in memory; the charge and ledger row land with the record', async () => {
    nextHour();
    const a = await start();
    const decided = decidedBody(await a.service.evaluate(pay(20)));
    expect(decided.decision).toBe('allow');
    // Claimed: no hold row, the pending evaluation is the hold.
    expect(await potRow()).toMatchObject({ owner: a.authority.owner });
    const holds = await db.dataSource.query(`SELECT 1 FROM "limit_holds" WHERE "reservation_id" = $1`, [
      decided.evaluation_id,
    ]);
    expect(holds).toEqual([]);
    expect(decidedBody(await a.service.evaluate(pay(31))).decision).toBe('budget_exceeded');
    expect((await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' })).type).toBe(
      'Finalized',
    );
    expect(await chargesOf(decided.evaluation_id)).toEqual(['20000000']);
    const ledger = await db.dataSource.query(
      `SELECT "amount"::text AS "amount" FROM "budget_events" WHERE "budget_name" = 'pot' AND "timestamp_ms" = $1`,
      [clock.ms],
    );
    expect(ledger).toEqual([{ amount: '20000000' }]);
    // Handed back at close: the sums are rebuilt from the rows.
    await a.authority.close();
    expect(await potRow()).toMatchObject({ owner: null, charged: '20000000', held: '0', cooled: false });
  });

  it("keeps an owned pot's charges as its ledger rows, counted once across owners and hand-backs", async () => {
    nextHour();
    const spend = async (p: Process, amount: number) => {
      const decided = decidedBody(await p.service.evaluate(pay(amount)));
      expect(decided.decision).toBe('allow');
      expect((await p.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' })).type).toBe(
        'Finalized',
      );
      return decided.evaluation_id;
    };
    const a = await start();
    const first = await spend(a, 5);
    await a.authority.close();
    // Claimed again by another process: the rows before its claim are charge rows, not its ledger's.
    // Its lease is killed below, and it stays down (a killed process does not rejoin).
    const c = await start({ rejoinDelayMs: STAYS_DOWN });
    const second = await spend(c, 7);
    expect(await potRow()).toMatchObject({ owner: c.authority.owner });
    const runs = await db.dataSource.query(
      `SELECT 1 FROM "limit_charge_runs" WHERE "bucket_id" = 'budget|1|budget:pot:global'`,
    );
    expect(runs).toEqual([]);
    const ledger = await db.dataSource.query(
      `SELECT "reservation_id", "amount"::text AS "amount" FROM "budget_events"
       WHERE "budget_name" = 'pot' AND "timestamp_ms" = $1 ORDER BY "id"`,
      [clock.ms],
    );
    expect(ledger).toEqual([
      { reservation_id: first, amount: '5000000' },
      { reservation_id: second, amount: '7000000' },
    ]);
    expect(await chargesOf(first)).toEqual(['5000000']);
    expect(await chargesOf(second)).toEqual(['7000000']);
    // 5 + 7 charged: 39 more would overshoot, 38 fits. A dead owner's ledger rows count after a takeover.
    expect(decidedBody(await c.service.evaluate(pay(39))).decision).toBe('budget_exceeded');
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [c.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(c.authority.isActive).toBe(false));
    const d = await start();
    expect(await potRow()).toMatchObject({ owner: null, charged: '12000000' });
    expect(decidedBody(await d.service.evaluate(pay(39))).decision).toBe('budget_exceeded');
    await spend(d, 38);
    await d.authority.close();
    expect(await potRow()).toMatchObject({ owner: null, charged: '50000000', held: '0' });
    expect(await chargesOf(second)).toEqual(['7000000']);
  });

  it('hands a bucket back when another process needs it; both then decide it on the shared path', async () => {
    nextHour();
    const [a, b] = [await start(), await start()];
    const held = decidedBody(await a.service.evaluate(pay(30)));
    expect(await potRow()).toMatchObject({ owner: a.authority.owner });
    // B asks A for the pot; A writes its live hold back, and the pot stays shared for the cooldown.
    expect(decidedBody(await b.service.evaluate(pay(21))).decision).toBe('budget_exceeded');
    expect(await potRow()).toMatchObject({ owner: null, held: '30000000', cooled: true });
    expect(decidedBody(await b.service.evaluate(pay(20))).decision).toBe('allow');
    // A's hold is committed on the shared path, from the hold row its hand-back wrote.
    expect((await a.service.audit({ evaluation_id: held.evaluation_id, status: 'success' })).type).toBe(
      'Finalized',
    );
    expect(await chargesOf(held.evaluation_id)).toEqual(['30000000']);
    expect(decidedBody(await a.service.evaluate(pay(1))).decision).toBe('budget_exceeded');
  });

  it("takes over a dead owner's buckets with its holds, and fences off what the dead owner decided", async () => {
    nextHour();
    const [a, b] = [await start({ rejoinDelayMs: STAYS_DOWN }), await start()];
    const committed = decidedBody(await a.service.evaluate(pay(10)));
    const open = decidedBody(await a.service.evaluate(pay(30)));
    // Committed in A's memory: its charge waits for the finalization that carries it.
    const latch = { payloadHash: 'h', actualAmount: null };
    const context = {
      auditRecordId: 'r-1',
      toolName: 'pay',
      origin: 'sdk',
      latch: { evaluationId: committed.evaluation_id, value: latch },
    };
    await a.limits.commit(committed.evaluation_id, [potCharge(10)], context, clock.ms);
    expect(await chargesOf(committed.evaluation_id)).toEqual([]);
    // "kill -9" of A's lease: its key is free, so B may take its buckets over.
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [a.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(a.authority.isActive).toBe(false));
    // B counts both of A's holds (10 + 30 of 50): 11 more would overshoot, 10 fits.
    expect(decidedBody(await b.service.evaluate(pay(11))).decision).toBe('budget_exceeded');
    expect(decidedBody(await b.service.evaluate(pay(10))).decision).toBe('allow');
    // A's charge can no longer land: B holds A's key.
    await expect(a.pending.finalize(auditTombstone(committed.evaluation_id))).rejects.toMatchObject({
      code: 'HL002',
    });
    expect(await chargesOf(committed.evaluation_id)).toEqual([]);
    // The calls are finished by B: each charged once.
    for (const evaluation of [committed, open])
      expect(
        (await b.service.audit({ evaluation_id: evaluation.evaluation_id, status: 'success' })).type,
      ).toBe('Finalized');
    expect(await chargesOf(committed.evaluation_id)).toEqual(['10000000']);
    expect(await chargesOf(open.evaluation_id)).toEqual(['30000000']);
  });

  it('rejoins after its lease is lost: everything goes back exactly, then a new owner decides in memory', async () => {
    nextHour();
    const a = await start({ rejoinDelayMs: 10 });
    const first = a.authority.owner;
    const open = decidedBody(await a.service.evaluate(pay(20)));
    const committed = decidedBody(await a.service.evaluate(pay(5)));
    await commitInMemory(a, committed.evaluation_id, 5);
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [a.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(a.authority.owner).not.toBe(first), { timeout: 10_000 });
    await a.authority.rejoined();
    expect(a.authority.isActive).toBe(true);
    // The lost tenure handed the pot back with its unwritten charge (5) and its live hold (20).
    expect(await potRow()).toMatchObject({ owner: null, charged: '5000000', held: '20000000' });
    expect(await chargesOf(committed.evaluation_id)).toEqual(['5000000']);
    // Both calls finish: the commit answered once (its latch), the open hold charged once.
    for (const evaluation of [committed, open])
      expect(
        (await a.service.audit({ evaluation_id: evaluation.evaluation_id, status: 'success' })).type,
      ).toBe('Finalized');
    expect(await chargesOf(committed.evaluation_id)).toEqual(['5000000']);
    expect(await chargesOf(open.evaluation_id)).toEqual(['20000000']);
    // The new owner claims the pot again: 25 of 50 spent, 26 overshoots, 25 fits.
    expect(decidedBody(await a.service.evaluate(pay(26))).decision).toBe('budget_exceeded');
    expect(await potRow()).toMatchObject({ owner: a.authority.owner });
    expect(decidedBody(await a.service.evaluate(pay(25))).decision).toBe('allow');
    await a.authority.close();
  });

  it('rejoins after another process took it over first: a voided commit is retried, charged once', async () => {
    nextHour();
    const [a, b] = [await start({ rejoinDelayMs: 1_000 }), await start()];
    const first = a.authority.owner;
    const committed = decidedBody(await a.service.evaluate(pay(10)));
    expect(await potRow()).toMatchObject({ owner: first });
    await commitInMemory(a, committed.evaluation_id, 10);
    await db.dataSource.query(`SELECT pg_terminate_backend($1)`, [a.authority.leaseBackendPid]);
    await vi.waitFor(() => expect(a.authority.isActive).toBe(false));
    // B seizes A's key before A retires: the hold is rebuilt from the pending evaluation.
    await b.authority.current.recoverDeadOwners();
    expect(await potRow()).toMatchObject({ owner: null, charged: '0', held: '10000000' });
    await vi.waitFor(() => expect(a.authority.owner).not.toBe(first), { timeout: 10_000 });
    await a.authority.rejoined();
    // The charge A decided can never land: the call's finalization fails until it is committed again.
    await expect(a.pending.finalize(auditTombstone(committed.evaluation_id))).rejects.toMatchObject({
      code: 'HL002',
    });
    expect(await chargesOf(committed.evaluation_id)).toEqual([]);
    expect((await a.service.audit({ evaluation_id: committed.evaluation_id, status: 'success' })).type).toBe(
      'Finalized',
    );
    expect(await chargesOf(committed.evaluation_id)).toEqual(['10000000']);
    expect(decidedBody(await a.service.evaluate(pay(41))).decision).toBe('budget_exceeded');
    expect(decidedBody(await a.service.evaluate(pay(40))).decision).toBe('allow');
    await a.authority.close();
  });

  it('hands a bucket back for a while once its window holds more charges than memory should', async () => {
    nextHour();
    const a = await start({ maxChargeEntries: 3, sweepIntervalMs: 20 });
    for (let i = 0; i < 4; i += 1) {
      clock.ms += 1;
      const decided = decidedBody(await a.service.evaluate(pay(1)));
      expect((await a.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' })).type).toBe(
        'Finalized',
      );
    }
    await vi.waitFor(async () => expect(await potRow()).toMatchObject({ owner: null, charged: '4000000' }));
    // Shared from now on (the cooldown starts ten minutes ahead): decided exactly on the shared path.
    expect(decidedBody(await a.service.evaluate(pay(46))).decision).toBe('allow');
    expect(decidedBody(await a.service.evaluate(pay(1))).decision).toBe('budget_exceeded');
    expect(await potRow()).toMatchObject({ owner: null, held: '46000000' });
  });
});
