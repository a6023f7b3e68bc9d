import { packageTestConfig } from '../../vitest.shared.ts';

export default packageTestConfig(import.meta.dirname, { thresholds: { lines: 95, branches: 90 } });
