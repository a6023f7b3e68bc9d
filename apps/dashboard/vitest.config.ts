import { defineConfig } from 'vitest/config';
import { testReporters } from '../../vitest.shared.ts';

// Unit tests of the API client and formatting, and browser tests against the built API and dashboard.
// The browser tests boot real servers (with an embedded PostgreSQL), so they get long timeouts and run
// one file at a time on this 2-core machine.
export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: testReporters('dashboard'),
  },
});
