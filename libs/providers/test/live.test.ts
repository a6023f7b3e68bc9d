/**
 * One real turn per provider against its real API — only when its key is set in the environment
 * (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`); otherwise skipped, saying why. The model can be chosen with
 * `HELIOS_LIVE_ANTHROPIC_MODEL` / `HELIOS_LIVE_OPENAI_MODEL` / `HELIOS_LIVE_GEMINI_MODEL`. CI runs without keys: these never decide a
 * build, they tell a developer with keys that the wire formats the fixtures imitate still hold.
 */
import { Message } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { resolveModel } from '../src/index.js';

const LIVE = [
  {
    provider: 'anthropic',
    key: 'ANTHROPIC_API_KEY',
    model: process.env['HELIOS_LIVE_ANTHROPIC_MODEL'] ?? 'claude-haiku-4-5',
  },
  {
    provider: 'openai',
    key: 'OPENAI_API_KEY',
    model: process.env['HELIOS_LIVE_OPENAI_MODEL'] ?? 'gpt-5.4-mini',
  },
  {
    provider: 'gemini',
    key: 'GEMINI_API_KEY',
    model: process.env['HELIOS_LIVE_GEMINI_MODEL'] ?? 'gemini-3-flash-preview',
  },
] as const;

for (const live of LIVE) {
  const hasKey = (process.env[live.key] ?? '').trim() !== '';
  if (!hasKey) console.info(`live ${live.provider} test skipped: ${live.key} is not set`);
  describe.skipIf(!hasKey)(`${live.provider} live`, () => {
    it(`answers one turn with text and usage (${live.model})`, async () => {
      const model = resolveModel(`${live.provider}/${live.model}`);
      try {
        const response = await model.chat([Message.user('Reply with exactly the word: pong')]);
        expect(response.content.toLowerCase()).toContain('pong');
        expect(response.usage.outputTokens).toBeGreaterThan(0);
      } finally {
        await model.close();
      }
    }, 60_000);
  });
}
