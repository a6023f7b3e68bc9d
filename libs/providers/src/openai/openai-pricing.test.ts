import { Usage } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { OpenAiPricing } from './openai-pricing.js';

const MILLION = 1_000_000;

describe('OpenAiPricing', () => {
  it('prices input, cached input and output at the list rates', () => {
    const usage = Usage.of(MILLION, MILLION, { cacheReadTokens: MILLION });
    // gpt-5.5: input $5, cached input $0.50, output $30.
    expect(OpenAiPricing.calculator().cost('gpt-5.5', usage).microUsd).toBe(35_500_000n);
    expect(OpenAiPricing.pricing('gpt-4.1-mini')).toEqual({
      inputMicroUsdPerMillion: 400_000n,
      outputMicroUsdPerMillion: 1_600_000n,
      cacheWriteMicroUsdPerMillion: 400_000n,
      cacheReadMicroUsdPerMillion: 100_000n,
    });
  });

  it('prices dated snapshots as their family; unpriced ids cost zero and are reported once', () => {
    const unpriced: string[] = [];
    const calculator = OpenAiPricing.calculator({ onUnpriced: (id) => unpriced.push(id) });
    const usage = Usage.of(2 * MILLION, 0);
    expect(calculator.cost('gpt-4o-2024-08-06', usage).microUsd).toBe(5_000_000n);
    expect(calculator.cost('gpt-9', usage).microUsd).toBe(0n);
    expect(calculator.cost('gpt-9', usage).microUsd).toBe(0n);
    expect(calculator.cost('gpt-6-sol', usage).microUsd).toBe(0n);
    expect(unpriced).toEqual(['gpt-9', 'gpt-6-sol']);
    expect(OpenAiPricing.calculator().cost('gpt-9', usage).microUsd).toBe(0n);
  });

  it('prices the GPT-5.6 sizes, cached input at a tenth of input', () => {
    const calculator = OpenAiPricing.calculator();
    expect(calculator.cost('gpt-5.6-luna', Usage.of(MILLION, MILLION)).microUsd).toBe(7_000_000n);
    expect(calculator.cost('gpt-5.6-sol', Usage.of(0, 0, { cacheReadTokens: MILLION })).microUsd).toBe(
      500_000n,
    );
  });

  it('states when the rates were checked', () => {
    expect(OpenAiPricing.AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
