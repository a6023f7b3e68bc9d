import { Usage } from '@helios/core';
import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelRegistry } from './model-registry.js';

describe('ModelRegistry', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

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

  it('prices catalogued models and says once when a model has no price', () => {
    const registry = new ModelRegistry();
    const warned: string[] = [];
    vi.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warned.push(String(message));
    });
    const usage = Usage.of(1_000_000, 0);
    expect(registry.costCalculator('anthropic').cost('claude-haiku-4-5', usage).microUsd).toBe(1_000_000n);
    const local = registry.costCalculator('openai-compatible');
    expect(local.cost('llama3.1', usage).microUsd).toBe(0n);
    expect(local.cost('llama3.1', usage).microUsd).toBe(0n);
    expect(registry.costCalculator('openai').cost('gpt-unknown', usage).microUsd).toBe(0n);
    expect(warned).toEqual([
      "no list price for model 'openai-compatible/llama3.1': its calls are counted at zero cost",
      "no list price for model 'openai/gpt-unknown': its calls are counted at zero cost",
    ]);
  });
});
