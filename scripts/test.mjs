#!/usr/bin/env node
// `npm test`: format, lint, typecheck, the module-boundary check, then every package's tests (unit,
// integration, e2e, browser) with coverage gates where a package sets them. Stops at the first failing
// stage and ends with one summary line of all test counts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'coverage', '.results');
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NEXT_TELEMETRY_DISABLED: '1',
  HELIOS_TEST_RESULTS: resultsDir,
};
const nx = ['node_modules/nx/dist/bin/nx.js'];

const stages = [
  ['format', 'node', ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn']],
  ['lint', 'node', [...nx, 'run-many', '-t', 'lint', '--output-style=static']],
  ['typecheck', 'node', [...nx, 'run-many', '-t', 'typecheck', '--output-style=static']],
  ['module boundaries', 'node', [...nx, 'run', 'tools:test-boundaries', '--output-style=static']],
  // Packages with a coverage target run their tests under coverage (their thresholds gate the run).
  [
    'unit, integration and e2e tests',
    'node',
    [...nx, 'run-many', '-t', 'coverage', '--parallel=1', '--output-style=static'],
  ],
  ['browser tests', 'node', [...nx, 'run', 'dashboard:test', '--output-style=static']],
];

rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const started = Date.now();
for (const [name, command, args] of stages) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    summarize();
    console.error(`\nnpm test: stage "${name}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}
summarize();
console.log(`npm test: all stages passed in ${Math.round((Date.now() - started) / 1000)} s.`);

/** Sums the JSON reports every vitest run wrote (see vitest.shared.ts) into one closing line. */
function summarize() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of readdirSync(resultsDir).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
}
