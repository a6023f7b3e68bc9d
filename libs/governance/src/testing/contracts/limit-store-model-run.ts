/**
 * Runs one generated sequence against a store and the reference model side by side, comparing every
 * answer (reserve outcomes, commit snapshots, peeks) as it goes and the final state (every bucket now
 * and after everything has aged out, and the budget ledger) at the end. A disagreement fails with the
 * trace of the operations as they were resolved (ids, amounts, instants relative to the run's start).
 */
import { expect } from 'vitest';
import { type BucketCheck, type CommitCharge, type ReserveRequest } from '../../stores/limit-store.js';
import { unique } from './contract-subject.js';
import { type LedgeredLimitStore } from './limit-store-contract.js';
import { LimitStoreModel } from './limit-store-model.js';
import {
  type Advance,
  type BucketSpec,
  type ModelOp,
  type ModelSequence,
  type Pick,
  type Target,
} from './limit-store-model-ops.js';

/** How far apart two runs' clocks start: past every window, idle TTL and hold expiry a run can reach. */
const RUN_SPAN_MS = 100_000;
let nextRunStartMs = 1_000_000;
/** The final sweep peeks at this many edges at most. */
const MAX_FINAL_EDGES = 16;

/**
 * The start of a run's clock, later than every earlier run's activity, so runs over one database do
 * not meet through the sender-key capacity (which counts every live sender bucket of the store).
 */
export function laterInstant(): number {
  nextRunStartMs += RUN_SPAN_MS;
  return nextRunStartMs;
}

interface Reservation {
  readonly id: string;
  readonly checks: readonly BucketCheck[];
  readonly expiresAtMs: number;
}

/** One run's world: the sequence's buckets as checks, the reservations so far, the clock. */
class Run {
  readonly model: LimitStoreModel;
  readonly checks: readonly BucketCheck[];
  readonly reservations: Reservation[] = [];
  readonly trace: string[] = [];
  readonly startMs = laterInstant();
  nowMs = this.startMs;

  constructor(
    readonly store: LedgeredLimitStore,
    readonly specs: readonly BucketSpec[],
  ) {
    this.model = new LimitStoreModel();
    this.checks = specs.map((spec, i) => bucketOf(spec, i));
  }

  note(line: string): void {
    this.trace.push(`@${this.nowMs - this.startMs} ${line}`);
  }

  /** The check a pick names, with its amount resolved against the model at this instant. */
  checkOf(pick: Pick): BucketCheck {
    const base = this.checks[pick.bucket % this.checks.length] as BucketCheck;
    let amount = 1n;
    if (base.family !== 'rate') {
      if (pick.amount.type === 'Units') amount = BigInt(pick.amount.units) * this.unitOf(base);
      else {
        const used = this.model.peek([base], this.nowMs)[0]?.used ?? 0n;
        amount = base.limit - used + BigInt(pick.amount.delta);
        if (amount < 0n) amount = 0n;
      }
    }
    return { ...base, amount, onBreach: pick.onBreach };
  }

  /** A call's checks: one per bucket (the first pick of a bucket wins). */
  checksOf(picks: readonly Pick[]): BucketCheck[] {
    const seen = new Set<number>();
    return picks.flatMap((pick) => {
      const index = pick.bucket % this.checks.length;
      if (seen.has(index)) return [];
      seen.add(index);
      return [this.checkOf(pick)];
    });
  }

  reservationOf(target: Target): Reservation | undefined {
    if (target.type === 'Unknown' || this.reservations.length === 0) return undefined;
    const back = target.index % this.reservations.length;
    return this.reservations[this.reservations.length - 1 - back];
  }

  /** Micro-units per unit of the check's bucket. */
  unitOf(check: BucketCheck): bigint {
    return (this.specs[this.checks.findIndex((c) => c.key === check.key)] as BucketSpec).unit;
  }

  /** Fails with the trace when the store's answer is not the model's. */
  same<T>(actual: T, expected: T): void {
    expect(actual, `store and model disagree after:\n  ${this.trace.join('\n  ')}\n`).toEqual(expected);
  }
}

/** A bucket of its own for this run (keys never repeat across runs sharing a database). */
function bucketOf(spec: BucketSpec, index: number): BucketCheck {
  const name = unique(`model${index}`);
  const key =
    spec.family === 'budget'
      ? `budget:${name}:${spec.senderScoped ? 'sender:U7' : spec.window.type === 'session' ? 'session:s1' : 'global'}`
      : `${spec.senderScoped ? 'sender:U7' : `tool:${name}`}:rule:${index}:${name}`;
  return {
    family: spec.family,
    key,
    epoch: spec.family === 'budget' ? 1 : 0,
    amount: spec.family === 'rate' ? 1n : spec.unit,
    limit: BigInt(spec.limitUnits) * spec.unit,
    window: spec.window,
    onBreach: 'refuse',
    senderScoped: spec.senderScoped,
  };
}

const show = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

const brief = (checks: readonly BucketCheck[]): string =>
  show(checks.map((c) => ({ key: c.key, amount: c.amount, limit: c.limit, onBreach: c.onBreach })));

async function reserve(run: Run, op: Extract<ModelOp, { type: 'Reserve' }>): Promise<void> {
  const request: ReserveRequest = {
    reservationId: unique('model-r'),
    checks: run.checksOf(op.picks),
    expiresAtMs: run.nowMs + op.expiresInMs,
    maxSenderKeys: op.maxSenderKeys,
  };
  run.reservations.push({
    id: request.reservationId,
    checks: request.checks,
    expiresAtMs: request.expiresAtMs,
  });
  run.note(
    `reserve ${request.reservationId} ${brief(request.checks)} expiresAt=@${request.expiresAtMs - run.startMs} maxSenderKeys=${request.maxSenderKeys}`,
  );
  const expected = run.model.reserve(request, run.nowMs);
  run.same(await run.store.reserve(request, run.nowMs), expected);
  run.note(`  → ${show(expected)}`);
}

async function commit(run: Run, op: Extract<ModelOp, { type: 'Commit' }>): Promise<void> {
  const reservation = run.reservationOf(op.target);
  const id = reservation?.id ?? unique('model-unknown');
  const kind = op.overage ? ('approved_overage' as const) : ('spend' as const);
  const charges = (reservation?.checks ?? run.checksOf(op.picks)).map((check): CommitCharge => {
    const actual = op.actualUnits === null ? undefined : BigInt(op.actualUnits) * run.unitOf(check);
    const amount = check.family === 'rate' || actual === undefined ? check.amount : actual;
    if (check.family !== 'budget') return { ...check, amount };
    return {
      ...check,
      amount,
      ledger: { budgetName: check.key.split(':')[1] as string, kind, currency: 'USD' },
    };
  });
  const context = { auditRecordId: `rec-${id}`, toolName: 'tool', origin: 'origin' };
  run.note(`commit ${id} ${brief(charges)}`);
  const expected = run.model.commit(id, charges, context, run.nowMs);
  run.same(await run.store.commit(id, charges, context, run.nowMs), expected);
  run.note(`  → ${show(expected)}`);
}

async function release(run: Run, target: Target): Promise<void> {
  const id = run.reservationOf(target)?.id ?? unique('model-unknown');
  run.note(`release ${id}`);
  run.model.release(id);
  await run.store.release(id);
}

async function peek(run: Run, checks: readonly BucketCheck[]): Promise<void> {
  run.note(`peek ${brief(checks)}`);
  const expected = run.model.peek(checks, run.nowMs);
  run.same(await run.store.peek(checks, run.nowMs), expected);
  run.note(`  → ${show(expected)}`);
}

function advance(run: Run, to: Advance): void {
  let target = run.nowMs;
  if (to.type === 'By') target = run.nowMs + to.ms;
  else if (to.type === 'HoldExpiry') {
    const reservation = run.reservationOf({ type: 'Earlier', index: to.target });
    if (reservation !== undefined) target = reservation.expiresAtMs + to.delta;
  } else {
    const check = run.checks[to.bucket % run.checks.length] as BucketCheck;
    const edge =
      to.type === 'WindowEdge' ? run.model.windowEdgeMs(check, run.nowMs) : run.model.idleEdgeMs(check);
    if (edge !== undefined) target = edge + to.delta;
  }
  if (target > run.nowMs) {
    run.nowMs = target;
    run.note(`clock → ${show(to)}`);
  }
}

async function step(run: Run, op: ModelOp): Promise<void> {
  switch (op.type) {
    case 'Reserve':
      return reserve(run, op);
    case 'Commit':
      return commit(run, op);
    case 'Release':
      return release(run, op.target);
    case 'Peek':
      return peek(run, run.checksOf(op.picks));
    case 'Advance':
      return advance(run, op.to);
  }
}

/**
 * Every bucket at the end, at each instant an answer may change afterwards (window edges, hold
 * expiries, idle edges, and the instant before each), and once everything has aged out; then the
 * ledger rows of the run.
 */
async function finalState(run: Run): Promise<void> {
  const probes = run.checks.map((check) => ({ ...check, amount: check.family === 'rate' ? 1n : 0n }));
  await peek(run, probes);
  for (const instant of run.model.edgesAfter(run.nowMs).slice(0, MAX_FINAL_EDGES)) {
    run.nowMs = instant;
    await peek(run, probes);
  }
  run.nowMs += RUN_SPAN_MS / 10;
  run.note('(past every window, idle TTL and expiry)');
  await peek(run, probes);
  const keys = new Set(run.checks.map((check) => check.key));
  const rows = (await run.store.ledger()).filter((row) => keys.has(row.bucketKey));
  run.same(rows, [...run.model.ledger()]);
}

/** Runs one sequence against `store` and the model; throws (with the trace) on the first disagreement. */
export async function runModelSequence(store: LedgeredLimitStore, sequence: ModelSequence): Promise<void> {
  const run = new Run(store, sequence.buckets);
  run.note(
    `buckets ${show(run.checks.map((c) => ({ key: c.key, limit: c.limit, window: c.window, senderScoped: c.senderScoped })))}`,
  );
  for (const op of sequence.ops) await step(run, op);
  await finalState(run);
}
