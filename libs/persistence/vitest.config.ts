import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig(import.meta.dirname, {
  testTimeout: 60_000,
  thresholds: { lines: 90, branches: 80 },
  // The embedded server's lifecycle (orphan recovery, locks, signals) is covered by the API's process
  // tests, which spawn and kill it; here it only boots the test database.
  coverageExclude: ['src/embedded/**'],
});
