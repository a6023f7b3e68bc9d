import { packageTestConfig } from '../../vitest.shared.ts';

// Integration and e2e suites boot real PostgreSQL servers and API processes.
export default packageTestConfig(import.meta.dirname, {
  testTimeout: 90_000,
  thresholds: { lines: 80, branches: 55 },
  // Process entry points run only in spawned processes (test/process.e2e.test.ts), which v8 coverage
  // of the test process cannot see.
  coverageExclude: ['src/main.ts', 'src/cli/**'],
});
