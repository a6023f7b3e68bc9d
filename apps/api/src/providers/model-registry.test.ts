import { describe, expect, it } from 'vitest';
import { ModelRegistry } from './model-registry.js';

describe('ModelRegistry', () => {
  it('resolves provider/model names and closes what it made at shutdown', async () => {
    const registry = new ModelRegistry();
    const model = registry.resolve('openai-compatible/llama3.1', { baseUrl: 'http://127.0.0.1:9/v1' });
    expect([model.provider, model.id]).toEqual(['openai-compatible', 'llama3.1']);
    await registry.onApplicationShutdown();
    expect(() => model.chatStream([])).toThrow(/closed/);
  });

  it('fails at resolve time, naming the variable, when a key is missing', () => {
    const registry = new ModelRegistry();
    expect(() => registry.resolve('anthropic/claude-haiku-4-5', { env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => registry.resolve('nope/x', { env: {} })).toThrow(/unknown provider 'nope'/);
  });
});
