import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig(import.meta.dirname, {
  thresholds: { lines: 95, branches: 90 },
  // The in-memory test harness is exercised by every service test and ships in no build.
  coverageExclude: ['src/testing/**'],
});
