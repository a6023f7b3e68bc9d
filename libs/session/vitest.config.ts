import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig(import.meta.dirname, {
  thresholds: { lines: 95, branches: 90 },
  // The store contract suite is exercised by every store's tests and ships in no build.
  coverageExclude: ['src/testing/**'],
});
