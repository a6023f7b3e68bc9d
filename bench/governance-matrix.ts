/**
 * The governance limit matrix (issue 18), shared by governance-pairs (our API alone) and
 * governance-original (ours beside the original, gethelio/helio): one policy holding a rule or budget
 * per row, each row's evaluate + audit pair load, rounds that alternate the rows (and the servers), and
 * the medians and ratios reported.
 *
 * Every row is the same pair loop on 50 connections (evaluate, then audit of the evaluation it
 * answered) against a tool shaped for that row; the policy is one document, so one server process
 * serves every row and rows differ only in what the call engages. A slow row cannot hang a run: each
 * load lasts `durationS`, and before the next one starts the servers are left to finish the requests
 * the load abandoned (`settle`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { median } from './median.ts';

export const CONNECTIONS = 50;
/** Issue 18's targets: every limited row ≥ 0.8× the no-rule row; 100,000 charges ≥ 0.8× 10. */
export const LIMITED_TARGET = 0.8;
export const FILL_TARGET = 0.8;
export const FILL_SMALL = 10;
export const FILL_LARGE = 100_000;
/** Round-robin spread of the keyed rows. */
export const SESSIONS = 1_000;
export const SENDERS = 10_000;
/** Small enough never to breach a 1,000,000 limit in any run (0.01 × a few 100,000 calls). */
const AMOUNT = 0.01;
const BIG_LIMIT = 1_000_000;

export interface MatrixRow {
  readonly id: string;
  /** How the row is named in metrics and docs. */
  readonly label: string;
  readonly tool: string;
  /** The rule limits the row engages: judged against the no-rule row. */
  readonly limited: boolean;
  /** Distinct keys the row cycles through (sessions, senders): the warm-up uses each once. */
  readonly keys?: number;
  /** The evaluate body of the row's n-th call. */
  body(n: number): Record<string, unknown>;
}

const plain =
  (tool: string, args: Record<string, unknown> = { q: 1 }) =>
  (): Record<string, unknown> => ({ session_id: 'bench', tool: { name: tool }, arguments: args });

export const NO_RULE_TOOL = 'pair_probe';

export const MATRIX_ROWS: readonly MatrixRow[] = [
  { id: 'no_rule', label: 'no rule', tool: NO_RULE_TOOL, limited: false, body: plain(NO_RULE_TOOL) },
  {
    id: 'rate_1s',
    label: 'rate_limit 1s',
    tool: 'bench_rate_1s',
    limited: true,
    body: plain('bench_rate_1s'),
  },
  {
    id: 'rate_1h',
    label: 'rate_limit 1h',
    tool: 'bench_rate_1h',
    limited: true,
    body: plain('bench_rate_1h'),
  },
  {
    id: 'spend',
    label: 'spend_limit',
    tool: 'bench_spend',
    limited: true,
    body: plain('bench_spend', { amount: AMOUNT }),
  },
  {
    id: 'budget_global',
    label: 'global budget',
    tool: 'bench_budget_global',
    limited: true,
    body: plain('bench_budget_global', { amount: AMOUNT }),
  },
  {
    id: 'budget_session',
    label: `session budget, ${SESSIONS.toLocaleString('en-US')} sessions`,
    tool: 'bench_budget_session',
    limited: true,
    keys: SESSIONS,
    body: (n) => ({
      session_id: `bench-session-${n % SESSIONS}`,
      tool: { name: 'bench_budget_session' },
      arguments: { amount: AMOUNT },
    }),
  },
  {
    id: 'rate_sender',
    label: `rate_limit per sender_id, ${SENDERS.toLocaleString('en-US')} senders`,
    tool: 'bench_rate_sender',
    limited: true,
    keys: SENDERS,
    body: (n) => ({
      session_id: 'bench',
      tool: { name: 'bench_rate_sender' },
      arguments: { q: 1 },
      metadata: { sender_id: `bench-sender-${n % SENDERS}` },
    }),
  },
  {
    id: 'fill_small',
    label: `rate_limit 1h, ${FILL_SMALL} charges in the window`,
    tool: 'bench_fill_small',
    limited: true,
    body: plain('bench_fill_small'),
  },
  {
    id: 'fill_large',
    label: `rate_limit 1h, ${FILL_LARGE.toLocaleString('en-US')} charges in the window`,
    tool: 'bench_fill_large',
    limited: true,
    body: plain('bench_fill_large'),
  },
];

export const rowById = (id: string): MatrixRow => MATRIX_ROWS.find((row) => row.id === id) as MatrixRow;

const rateRule = (name: string, tool: string, window: string, key = 'tool'): Record<string, unknown> => ({
  name,
  match: { tool },
  action: 'rate_limit',
  limits: { max_calls: BIG_LIMIT, window, key },
});

/**
 * The rules and budgets of every row, in the reference's policy format (both servers accept it). The
 * no-rule tool matches none of them and feeds no budget: the default allow.
 */
export function matrixPolicy(): Record<string, unknown> {
  const budget = (name: string, tool: string, window: string, key: string): Record<string, unknown> => ({
    name,
    limit: BIG_LIMIT,
    currency: 'USD',
    window,
    key,
    on_exceed: 'deny',
    contributors: [{ match: { tool }, field: '$.amount' }],
  });
  return {
    version: '1',
    policies: {
      default: 'allow',
      rules: [
        rateRule('bench-rate-1s', 'bench_rate_1s', '1s'),
        rateRule('bench-rate-1h', 'bench_rate_1h', '1h'),
        {
          name: 'bench-spend',
          match: { tool: 'bench_spend' },
          action: 'spend_limit',
          limits: {
            max_spend: { field: '$.amount', limit: BIG_LIMIT, currency: 'USD', window: '1h', key: 'tool' },
          },
        },
        rateRule('bench-rate-sender', 'bench_rate_sender', '1h', 'sender_id'),
        rateRule('bench-fill-small', 'bench_fill_small', '1h'),
        rateRule('bench-fill-large', 'bench_fill_large', '1h'),
      ],
    },
    budgets: [
      budget('bench-global', 'bench_budget_global', '1h', 'global'),
      budget('bench-session', 'bench_budget_session', 'session', 'session'),
    ],
  };
}

/** A governance sideband under load: its origin, its token, and the CPU its processes have spent. */
export interface MatrixTarget {
  readonly name: string;
  readonly url: string;
  readonly token: string;
  cpuMicros(): number;
}

export interface PairsResult {
  /**
   * Requests answered (evaluates and audits, any status) ÷ 2. In a steady loop that is the pairs
   * completed; for a row so slow that a load ends before the first audits return (50 evaluates queued
   * on one bucket lock take seconds), it still credits the work done instead of reporting 0.
   */
  readonly pairs: number;
  /** One decimal: the slowest rows run at a few pairs per second. */
  readonly pairsPerS: number;
  /** Of either request, ms. */
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Audits answered 201. */
  readonly audited: number;
  /** CPU µs per pair charged to the target's processes. */
  readonly cpuUsPerPair: number;
  /** In a bracketed matrix: the mean pairs/s of the baseline loads right before and right after this one. */
  readonly baselinePairsPerS?: number;
}

/** Each row's call counter, kept across loads so keyed rows keep cycling through their keys. */
const callCounters = new Map<string, number>();

const headersOf = (target: MatrixTarget): Record<string, string> => ({
  authorization: `Bearer ${target.token}`,
  'content-type': 'application/json',
});

/** The row's pair loop against `target` for `durationS`, or until at least `pairs` pairs when given. */
export async function runPairs(
  target: MatrixTarget,
  row: MatrixRow,
  load: { readonly durationS?: number; readonly pairs?: number; readonly connections?: number },
): Promise<PairsResult> {
  const headers = headersOf(target);
  let answered = 0;
  let audited = 0;
  // A counted load splits its requests evenly over the connections: whole pairs on each, at least one.
  const connections = Math.min(load.connections ?? CONNECTIONS, load.pairs ?? Infinity);
  const stop =
    load.pairs === undefined
      ? { duration: load.durationS ?? 5 }
      : { amount: 2 * connections * Math.ceil(load.pairs / connections) };
  const cpuBefore = target.cpuMicros();
  const result = await autocannon({
    url: target.url,
    connections,
    ...stop,
    requests: [
      {
        method: 'POST',
        path: '/evaluate',
        headers,
        setupRequest: (request) => {
          const n = callCounters.get(row.id) ?? 0;
          callCounters.set(row.id, n + 1);
          return { ...request, body: JSON.stringify(row.body(n)) };
        },
        onResponse: (status, body, context) => {
          answered += 1;
          (context as Record<string, unknown>)['evaluationId'] =
            status === 200 ? (JSON.parse(body) as { evaluation_id: string }).evaluation_id : undefined;
        },
      },
      {
        method: 'POST',
        path: '/audit',
        headers,
        setupRequest: (request, context) => ({
          ...request,
          body: JSON.stringify({
            evaluation_id: (context as Record<string, unknown>)['evaluationId'] ?? 'none',
            status: 'success',
            duration_ms: 1,
          }),
        }),
        onResponse: (status) => {
          answered += 1;
          if (status === 201) audited += 1;
        },
      },
    ],
  });
  const cpu = target.cpuMicros() - cpuBefore;
  const pairs = answered / 2;
  return {
    pairs,
    pairsPerS: Number((pairs / result.duration).toFixed(1)),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    audited,
    cpuUsPerPair: pairs === 0 ? 0 : Math.round(cpu / pairs),
  };
}

/** One evaluate + audit of the row; returns the evaluate's answer (its `limits` show the buckets). */
export async function probePair(
  target: MatrixTarget,
  row: MatrixRow,
): Promise<{ evaluationId: string; decision: string; rateCurrent: number | undefined }> {
  const headers = headersOf(target);
  const evaluated = await fetch(`${target.url}/evaluate`, {
    method: 'POST',
    headers,
    body: JSON.stringify(row.body(0)),
  });
  const answer = (await evaluated.json()) as {
    evaluation_id: string;
    decision: string;
    limits?: { rate?: { current?: number } };
  };
  if (evaluated.status !== 200) throw new Error(`${target.name} ${row.id}: evaluate ${evaluated.status}`);
  const audit = await fetch(`${target.url}/audit`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ evaluation_id: answer.evaluation_id, status: 'success', duration_ms: 1 }),
  });
  await audit.arrayBuffer();
  if (audit.status !== 201) throw new Error(`${target.name} ${row.id}: audit ${audit.status}`);
  return {
    evaluationId: answer.evaluation_id,
    decision: answer.decision,
    rateCurrent: answer.limits?.rate?.current,
  };
}

/**
 * Fills the row's rate bucket to `count` calls by driving pairs (the only way into a server we do not
 * own), in chunks with progress on stderr. Returns the bucket's count as the last probe saw it.
 */
export async function fillByPairs(target: MatrixTarget, row: MatrixRow, count: number): Promise<number> {
  const calls = async (): Promise<number> => {
    const { rateCurrent } = await probePair(target, row);
    if (rateCurrent === undefined) throw new Error(`${target.name} ${row.id}: no limits.rate.current`);
    return rateCurrent;
  };
  let current = await calls();
  const started = Date.now();
  while (current < count) {
    await runPairs(target, row, { pairs: Math.min(20_000, count - current) });
    const before = current;
    current = await calls();
    if (current <= before) throw new Error(`${target.name} ${row.id}: the bucket stays at ${current} calls`);
    process.stderr.write(
      `  ${target.name}: ${row.tool} filled to ${current} calls (${Math.round((Date.now() - started) / 1000)} s)\n`,
    );
  }
  return current;
}

/**
 * Waits until every target is idle (together under a tenth of a core over a quarter second, at most
 * 15 s): the requests a load abandoned at its end are still being served, and must not slow the next.
 */
export async function settle(targets: readonly MatrixTarget[]): Promise<void> {
  const total = (): number => targets.reduce((sum, target) => sum + target.cpuMicros(), 0);
  for (let i = 0; i < 60; i += 1) {
    const before = total();
    await sleep(250);
    if (total() - before < 25_000) return;
  }
}

export type MatrixRuns = Map<string, Map<string, PairsResult[]>>;

export interface MatrixOptions {
  readonly targets: readonly MatrixTarget[];
  readonly rows: readonly MatrixRow[];
  readonly rounds: number;
  readonly durationS: number;
  /** Runs before each round (the servers settled): e.g. resetting the fill rows. */
  readonly beforeRound?: (round: number) => Promise<void>;
  /**
   * A row (the no-rule row) run before and after every other row, so each row is judged against the
   * baseline measured seconds around it: the machine's drift over a round (tens of seconds on a shared
   * host) falls on both sides of the ratio alike.
   */
  readonly bracketWith?: string;
}

/**
 * Rounds of every row on every target. The row order rotates by one each round and the targets swap
 * order each round, so drift in the machine's speed falls on all rows alike and no row always follows
 * the same one. Returns each target's results per row, one per round.
 */
export async function runMatrix(options: MatrixOptions): Promise<MatrixRuns> {
  const runs: MatrixRuns = new Map(
    options.targets.map((target) => [target.name, new Map(options.rows.map((row) => [row.id, []]))]),
  );
  for (let round = 0; round < options.rounds; round += 1) {
    await settle(options.targets);
    await options.beforeRound?.(round);
    const shift = round % options.rows.length;
    const rows = [...options.rows.slice(shift), ...options.rows.slice(0, shift)];
    const targets = round % 2 === 0 ? options.targets : [...options.targets].reverse();
    const measure = async (row: MatrixRow, target: MatrixTarget): Promise<PairsResult> => {
      await settle(options.targets);
      const result = await runPairs(target, row, { durationS: options.durationS });
      process.stderr.write(
        `  round ${round + 1}/${options.rounds} ${target.name} ${row.id}: ${result.pairsPerS} pairs/s, p99 ${result.p99Ms} ms${result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''}\n`,
      );
      return result;
    };
    const baseline = options.rows.find((row) => row.id === options.bracketWith);
    if (baseline !== undefined) {
      await bracketedRound(rows, baseline, targets, runs, measure);
      continue;
    }
    for (const row of rows)
      for (const target of targets)
        runs
          .get(target.name)
          ?.get(row.id)
          ?.push(await measure(row, target));
  }
  return runs;
}

/** baseline, row 1, baseline, row 2, …, baseline: each row carries the mean of the baselines around it. */
async function bracketedRound(
  rows: readonly MatrixRow[],
  baseline: MatrixRow,
  targets: readonly MatrixTarget[],
  runs: MatrixRuns,
  measure: (row: MatrixRow, target: MatrixTarget) => Promise<PairsResult>,
): Promise<void> {
  for (const target of targets) {
    const ofTarget = runs.get(target.name);
    let before = await measure(baseline, target);
    ofTarget?.get(baseline.id)?.push(before);
    for (const row of rows) {
      if (row.id === baseline.id) continue;
      const result = await measure(row, target);
      const after = await measure(baseline, target);
      ofTarget?.get(baseline.id)?.push(after);
      const baselinePairsPerS = (before.pairsPerS + after.pairsPerS) / 2;
      ofTarget?.get(row.id)?.push({ ...result, baselinePairsPerS });
      before = after;
    }
  }
}

/** Warm-up (discarded): `durationS` of each row on each target, and a keyed row until each key was used once. */
export async function warmUp(
  targets: readonly MatrixTarget[],
  rows: readonly MatrixRow[],
  durationS: number,
): Promise<number> {
  let audited = 0;
  for (const row of rows)
    for (const target of targets) {
      await settle(targets);
      audited += (await runPairs(target, row, { durationS })).audited;
      // A keyed row's first call per key is not its steady state (ours claims the key's bucket then):
      // every key is used once before anything is measured.
      if (row.keys !== undefined) audited += (await runPairs(target, row, { pairs: row.keys })).audited;
    }
  return audited;
}

/** The median over rounds of a per-round ratio `a[i] / b[i]`. */
export function medianRatio(a: readonly PairsResult[], b: readonly PairsResult[]): number {
  return Number(
    median(a.map((run, i) => run.pairsPerS / Math.max(1, (b[i] as PairsResult).pairsPerS))).toFixed(3),
  );
}

/** The median over rounds of a row's pairs/s ÷ the baseline measured around it (a bracketed matrix). */
export function medianRatioToBaseline(runs: readonly PairsResult[]): number {
  return Number(
    median(runs.map((run) => run.pairsPerS / Math.max(1, run.baselinePairsPerS ?? 0))).toFixed(3),
  );
}

/** Per row: median pairs/s, its lowest and highest round, median p99, failures, CPU per pair. */
export function rowMetrics(
  prefix: string,
  row: MatrixRow,
  runs: readonly PairsResult[],
): Record<string, number> {
  const name = `${prefix}${row.label}`;
  return {
    [`${name}: pairs/s`]: median(runs.map((r) => r.pairsPerS)),
    [`${name}: pairs/s, lowest round`]: Math.min(...runs.map((r) => r.pairsPerS)),
    [`${name}: pairs/s, highest round`]: Math.max(...runs.map((r) => r.pairsPerS)),
    [`${name}: p99 ms`]: median(runs.map((r) => r.p99Ms)),
    [`${name}: CPU µs per pair (server)`]: median(runs.map((r) => r.cpuUsPerPair)),
    [`${name}: non-2xx + errors`]: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

/** Total audits answered 201 over every round of every row of one target. */
export function auditedIn(runs: Map<string, PairsResult[]>): number {
  let audited = 0;
  for (const results of runs.values()) for (const r of results) audited += r.audited;
  return audited;
}
