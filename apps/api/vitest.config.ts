import { packageTestConfig } from '../../vitest.shared.ts';

// Integration and e2e suites boot real PostgreSQL servers and API processes.
export default packageTestConfig(import.meta.dirname, {
  testTimeout: 90_000,
  thresholds: { lines: 80, branches: 70 },
});
