import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig(import.meta.dirname, {
  thresholds: { lines: 95, branches: 90 },
  // Scenario suites boot real sandbox children; the slowest (memory bomb, stop grace) take a few seconds.
  testTimeout: 30_000,
  // The child's entry runs only inside the sandbox process, which no coverage run instruments; every
  // module it glues together is tested in-process.
  coverageExclude: ['src/child/child-main.ts'],
});
