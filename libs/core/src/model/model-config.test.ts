import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ModelConfig, RawOutputCapturePolicy } from './model-config.js';
import { Reasoning } from './reasoning.js';

const KEY = 'sk-ant-super-secret-key-123';
const HEADER_VALUE = 'Bearer header-secret-value';

function config(): ModelConfig {
  return ModelConfig.create({
    apiKey: KEY,
    headers: { Authorization: HEADER_VALUE, 'X-Org': 'org-secret' },
    baseUrl: 'https://user:pass@example.com/v1?key=query-secret',
    reasoning: Reasoning.effort('MEDIUM', 'PROGRESS'),
    maxOutputTokens: 1024,
  });
}

describe('ModelConfig never shows credentials', () => {
  it.each([
    ['toString', (c: ModelConfig) => c.toString()],
    ['String()', (c: ModelConfig) => String(c)],
    ['a template string', (c: ModelConfig) => `config=${c}`],
    ['util.inspect', (c: ModelConfig) => inspect(c, { depth: 10, showHidden: true })],
    ['JSON.stringify', (c: ModelConfig) => JSON.stringify(c)],
    ['JSON.stringify nested', (c: ModelConfig) => JSON.stringify({ wrapped: [c] })],
    ['Object.entries', (c: ModelConfig) => JSON.stringify(Object.entries(c))],
    ['spread', (c: ModelConfig) => JSON.stringify({ ...c })],
  ])('through %s', (_how, render) => {
    const text = render(config());
    for (const secret of [KEY, HEADER_VALUE, 'org-secret', 'pass', 'query-secret']) {
      expect(text).not.toContain(secret);
    }
  });

  it('shows the rest, with secrets marked <redacted>', () => {
    const shown = config().toJSON();
    expect(shown).toMatchObject({
      apiKey: '<redacted>',
      headers: { Authorization: '<redacted>', 'X-Org': '<redacted>' },
      reasoning: 'Effort(MEDIUM, PROGRESS)',
      maxOutputTokens: 1024,
      providerContinuation: true,
      rawOutputCapture: 'ENABLED',
    });
    expect(shown['baseUrl']).toBe('https://%3Credacted%3E@example.com/v1?%3Credacted%3E');
    expect(inspect(config())).toContain('apiKey');
    expect(ModelConfig.create().toJSON()).not.toHaveProperty('apiKey');
  });

  it('still hands the key and headers to the provider', () => {
    const c = config();
    expect(c.apiKey).toBe(KEY);
    expect(c.headers['Authorization']).toBe(HEADER_VALUE);
  });
});

describe('ModelConfig values', () => {
  it('has defaults', () => {
    const c = ModelConfig.of('k');
    expect(c).toMatchObject({
      connectTimeoutMs: 10_000,
      responseTimeoutMs: 60_000,
      streamIdleTimeoutMs: 120_000,
      providerContinuation: true,
      rawOutputCapture: RawOutputCapturePolicy.ENABLED,
      reasoning: undefined,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('copies with changes', () => {
    const c = config().with({
      providerContinuation: false,
      rawOutputCapture: 'DISABLED',
      apiVersion: 'v1beta',
    });
    expect(c.apiKey).toBe(KEY);
    expect(c.providerContinuation).toBe(false);
    expect(c.rawOutputCapture).toBe('DISABLED');
    expect(c.apiVersion).toBe('v1beta');
  });

  it('merges headers over defaults case-insensitively', () => {
    const c = ModelConfig.create({ headers: { 'x-api-key': 'mine' } });
    expect(c.effectiveHeaders({ 'X-Api-Key': 'default', Accept: 'text/event-stream' })).toEqual({
      Accept: 'text/event-stream',
      'x-api-key': 'mine',
    });
    expect(c.effectiveBaseUrl('https://default')).toBe('https://default');
    expect(ModelConfig.create({ baseUrl: 'http://127.0.0.1:9' }).effectiveBaseUrl('https://d')).toBe(
      'http://127.0.0.1:9',
    );
  });

  it.each([
    [{ apiKey: 42 as unknown as string }, /apiKey must be a string/],
    [{ baseUrl: 'not a url' }, /absolute URL/],
    [{ headers: { ' ': 'v' } }, /non-blank/],
    [{ headers: { A: 1 as unknown as string } }, /string value/],
    [{ maxOutputTokens: 0 }, /maxOutputTokens/],
    [{ contextWindow: -1 }, /contextWindow/],
    [{ temperature: -0.1 }, /temperature/],
    [{ temperature: Number.NaN }, /temperature/],
    [{ topP: 0 }, /topP/],
    [{ topP: 1.5 }, /topP/],
    [{ seed: 1.5 }, /seed/],
    [{ responseTimeoutMs: 0 }, /responseTimeoutMs/],
  ])('refuses %j', (options, message) => {
    expect(() => ModelConfig.create(options)).toThrow(message);
  });

  it('never puts a refused header value in its error', () => {
    expect(() => ModelConfig.create({ apiKey: KEY, headers: { '': HEADER_VALUE } })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(HEADER_VALUE) as unknown }),
    );
  });
});
