import { packageTestConfig } from '../../vitest.shared.ts';

const PER_FOLDER = { lines: 90 };

// Issue 19: ≥ 90 % of lines per provider folder, and for the package as a whole.
export default packageTestConfig(import.meta.dirname, {
  thresholds: { lines: 90, branches: 75 },
  thresholdsByGlob: {
    'src/anthropic/**': PER_FOLDER,
    'src/openai/**': PER_FOLDER,
    'src/gemini/**': PER_FOLDER,
    'src/openai-compatible/**': PER_FOLDER,
    'src/ai-sdk/**': PER_FOLDER,
    'src/shared/**': PER_FOLDER,
  },
});
