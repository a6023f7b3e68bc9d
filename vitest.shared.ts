/**
 * One vitest configuration shape for every package: aliases from tsconfig.base.json (so tests run
 * against sources, not builds), test file globs, and per-package coverage output with thresholds.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const workspaceRoot = dirname(fileURLToPath(import.meta.url));

interface Thresholds {
  readonly lines?: number;
  readonly functions?: number;
  readonly branches?: number;
  readonly statements?: number;
}

interface PackageTestOptions {
  /** Coverage thresholds (percent) that fail `npm run coverage` when missed. */
  readonly thresholds?: Thresholds;
  /** Thresholds a group of sources must meet on its own (glob → thresholds), e.g. one per provider folder. */
  readonly thresholdsByGlob?: Readonly<Record<string, Thresholds>>;
  /** Per-test timeout; integration and e2e suites boot databases and servers. */
  readonly testTimeout?: number;
  /** Sources left out of coverage, with the reason next to the option. */
  readonly coverageExclude?: readonly string[];
  /** Extra vitest `test` options (e.g. `fileParallelism`). */
  readonly test?: NonNullable<ViteUserConfig['test']>;
}

/** Exact-match aliases (`@helios/x` must not swallow `@helios/x/testing`), longest name first. */
function workspaceAliases(): { find: RegExp; replacement: string }[] {
  const base = JSON.parse(readFileSync(resolve(workspaceRoot, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.entries(base.compilerOptions.paths)
    .filter((entry): entry is [string, [string, ...string[]]] => entry[1][0] !== undefined)
    .sort(([a], [b]) => b.length - a.length)
    .map(([name, [target]]) => ({
      find: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
      replacement: resolve(workspaceRoot, target),
    }));
}

export function packageTestConfig(packageDir: string, options: PackageTestOptions = {}): ViteUserConfig {
  const name = basename(packageDir);
  return defineConfig({
    resolve: { alias: workspaceAliases() },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      passWithNoTests: true,
      reporters: testReporters(name),
      testTimeout: options.testTimeout ?? 10_000,
      hookTimeout: Math.max(options.testTimeout ?? 10_000, 30_000),
      coverage: {
        provider: 'v8',
        include: ['src/**/*.ts'],
        exclude: ['src/**/*.test.ts', ...(options.coverageExclude ?? [])],
        reporter: ['text-summary', 'json-summary'],
        reportsDirectory: resolve(workspaceRoot, 'coverage', name),
        thresholds: { ...options.thresholds, ...options.thresholdsByGlob },
      },
      ...options.test,
    },
  });
}

/**
 * The console reporter, plus a JSON report when `npm test` asks for one (HELIOS_TEST_RESULTS), so the
 * root script can print one closing line with every package's counts.
 */
export function testReporters(name: string): NonNullable<NonNullable<ViteUserConfig['test']>['reporters']> {
  const dir = process.env.HELIOS_TEST_RESULTS;
  return dir ? ['default', ['json', { outputFile: resolve(dir, `${name}.json`) }]] : ['default'];
}
