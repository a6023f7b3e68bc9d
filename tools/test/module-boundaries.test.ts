/**
 * The dependency rules of ARCHITECTURE.md are enforced by lint. These tests place small probe files in
 * each package, refresh Nx's project graph (the rule only judges files the graph knows), lint them and
 * check that forbidden imports fail and allowed ones pass. Run it alone (`npm run test:boundaries`):
 * the probes exist in the source tree while it runs.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

interface Probe {
  readonly dir: string;
  readonly target: string;
  readonly allowed: boolean;
  /** Probe as a test file (`*.test.ts`), where the test kit is allowed. */
  readonly test?: boolean;
}

const probes: readonly Probe[] = [
  { dir: 'libs/core/src', target: '@helios/session', allowed: false },
  { dir: 'libs/core/src', target: '@helios/persistence', allowed: false },
  { dir: 'libs/session/src', target: '@helios/governance', allowed: false },
  { dir: 'libs/providers/src', target: '@helios/session', allowed: false },
  { dir: 'libs/governance/src', target: '@helios/providers', allowed: false },
  { dir: 'libs/persistence/src', target: '@helios/providers', allowed: false },
  { dir: 'libs/sandbox/src', target: '@helios/governance', allowed: false },
  { dir: 'libs/core/src', target: '../../../apps/api/src/server.js', allowed: false },
  { dir: 'apps/dashboard/lib', target: '@helios/core', allowed: false },
  { dir: 'libs/core/src', target: '@nestjs/common', allowed: false },
  { dir: 'libs/session/src', target: 'next/server', allowed: false },
  { dir: 'libs/governance/src', target: 'react', allowed: false },
  { dir: 'libs/session/src', target: '@helios/testing', allowed: false },
  { dir: 'libs/providers/src', target: '@helios/core', allowed: true },
  { dir: 'libs/session/src', target: '@helios/core', allowed: true },
  { dir: 'libs/sandbox/src', target: '@helios/session', allowed: true },
  { dir: 'libs/persistence/src', target: '@helios/governance', allowed: true },
  { dir: 'libs/testing/src', target: '@helios/core', allowed: true },
  { dir: 'apps/api/src', target: '@helios/session', allowed: true },
  { dir: 'libs/session/src', target: '@helios/testing', allowed: true, test: true },
];

const fileOf = (probe: Probe, index: number) =>
  resolve(root, probe.dir, `boundary-probe-${index}${probe.test ? '.test' : ''}.ts`);

function refreshProjectGraph(): void {
  execFileSync(process.execPath, [resolve(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
    stdio: 'ignore',
  });
}

let results: ESLint.LintResult[] = [];

/** Lints one group of probes; groups are kept apart so forbidden probes cannot form cycles with allowed ones. */
async function lintProbes(group: readonly Probe[]): Promise<ESLint.LintResult[]> {
  const files = group.map((probe) => fileOf(probe, probes.indexOf(probe)));
  group.forEach((probe, i) => writeFileSync(files[i] as string, `export * from '${probe.target}';\n`));
  try {
    refreshProjectGraph();
    return await new ESLint({ cwd: root }).lintFiles(files);
  } finally {
    files.forEach((file) => rmSync(file, { force: true }));
  }
}

beforeAll(async () => {
  results = [
    ...(await lintProbes(probes.filter((p) => !p.allowed))),
    ...(await lintProbes(probes.filter((p) => p.allowed))),
  ];
});

afterAll(() => refreshProjectGraph());

describe('module boundaries', () => {
  it.each(
    probes.map(
      (probe, i) =>
        [probe.dir, probe.allowed ? 'may' : 'may not', probe.target, probe.test === true, i] as const,
    ),
  )('%s %s import %s (in a test file: %s)', (_dir, _verdict, _target, _test, i) => {
    const probe = probes[i] as Probe;
    const result = results.find((r) => r.filePath === fileOf(probe, i));
    expect(result, 'the probe was linted').toBeDefined();
    const boundaryErrors = (result?.messages ?? []).filter(
      (m) => m.ruleId === '@nx/enforce-module-boundaries',
    );
    expect(boundaryErrors.length > 0).toBe(!probe.allowed);
    // A parse error would hide the rule altogether.
    expect(result?.messages.filter((m) => m.fatal)).toEqual([]);
  });
});
