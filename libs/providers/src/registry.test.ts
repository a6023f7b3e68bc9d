import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveModel } from './registry.js';

const KEY = 'sk-ant-test-key-0123456789abcdef';

describe('resolveModel', () => {
  it('builds an Anthropic model from ANTHROPIC_API_KEY, never showing the key', () => {
    const model = resolveModel('anthropic/claude-opus-5', { env: { ANTHROPIC_API_KEY: KEY } });
    expect(model).toMatchObject({ id: 'claude-opus-5', provider: 'anthropic', contextWindow: 1_000_000 });
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('fails at resolve time naming the missing variable', () => {
    expect(() => resolveModel('anthropic/claude-opus-5', { env: {} })).toThrow(
      "model 'anthropic/claude-opus-5' needs an API key: set ANTHROPIC_API_KEY or pass apiKey",
    );
    expect(() => resolveModel('openai-compatible/llama3.2', { env: {} })).toThrow(
      "model 'openai-compatible/llama3.2' needs a base URL: set OPENAI_BASE_URL or pass baseUrl",
    );
  });

  it('takes the OpenAI-compatible base URL from OPENAI_BASE_URL and passes catalogue options on', () => {
    const model = resolveModel('openai-compatible/qwen2.5:7b', {
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
      contextWindow: 32_768,
    });
    expect(model).toMatchObject({ id: 'qwen2.5:7b', provider: 'openai-compatible', contextWindow: 32_768 });
    expect(() =>
      resolveModel('anthropic/claude-opus-5-5', { apiKey: KEY, temperature: 0.2, env: {} }),
    ).toThrow(/claude-opus-5-5' does not accept sampling temperature 0.2/);
  });

  it('builds an OpenAI Responses model from OPENAI_API_KEY, failing at resolve time without it', () => {
    const key = 'sk-openai-test-key-0123456789';
    const model = resolveModel('openai/gpt-5.5', { env: { OPENAI_API_KEY: key } });
    expect(model).toMatchObject({ id: 'gpt-5.5', provider: 'openai', contextWindow: 1_050_000 });
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(key);
    expect(() => resolveModel('openai/gpt-5.5', { env: {} })).toThrow(
      "model 'openai/gpt-5.5' needs an API key: set OPENAI_API_KEY or pass apiKey",
    );
    expect(() => resolveModel('openai/o3', { apiKey: key, temperature: 1, env: {} })).toThrow(
      "openai model 'o3' does not accept sampling temperature 1",
    );
  });

  it('builds a Gemini model from GEMINI_API_KEY, failing at resolve time without it', () => {
    const key = 'AIzaSyTest-gemini-key-0123456789abcdef';
    const model = resolveModel('gemini/gemini-3.8-flash', { env: { GEMINI_API_KEY: key } });
    expect(model).toMatchObject({ id: 'gemini-3.8-flash', provider: 'gemini', contextWindow: 1_048_576 });
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(key);
    expect(() => resolveModel('gemini/gemini-3.8-flash', { env: {} })).toThrow(
      "model 'gemini/gemini-3.8-flash' needs an API key: set GEMINI_API_KEY or pass apiKey",
    );
    expect(() => resolveModel('gemini/gemini-3.8-flash', { apiKey: key, apiVersion: 'v3', env: {} })).toThrow(
      "gemini model 'gemini-3.8-flash' does not accept apiVersion v3; accepted: v1, v1beta",
    );
    expect(resolveModel('gemini/gemini-2-future', { apiKey: key, env: {} }).id).toBe('gemini-2-future');
  });

  it('refuses names without a provider or a model', () => {
    expect(() => resolveModel('claude-opus-5')).toThrow(
      "model name 'claude-opus-5' must be '<provider>/<model>'",
    );
    expect(() => resolveModel('mistral/large', { env: {} })).toThrow(
      "unknown provider 'mistral' in 'mistral/large'; available: anthropic, openai, gemini, openai-compatible",
    );
  });
});
