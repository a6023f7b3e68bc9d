import { Usage } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { GeminiPricing } from './gemini-pricing.js';

const MILLION = 1_000_000;

describe('GeminiPricing', () => {
  it('prices input, cached input and output (thinking included) at the list rates', () => {
    const usage = Usage.of(MILLION, MILLION, { cacheReadTokens: MILLION });
    // gemini-3-flash-preview: input $0.50, cached $0.05, output $3.
    expect(GeminiPricing.calculator().cost('gemini-3-flash-preview', usage).microUsd).toBe(3_550_000n);
    expect(GeminiPricing.pricing('models/gemini-3-flash-preview')?.cacheReadMicroUsdPerMillion).toBe(50_000n);
  });

  it('prices 3.5 Flash and 3.1 Flash-Lite', () => {
    const calculator = GeminiPricing.calculator();
    expect(calculator.cost('gemini-3.5-flash', Usage.of(MILLION, MILLION)).microUsd).toBe(10_500_000n);
    expect(calculator.cost('gemini-3.1-flash-lite', Usage.of(MILLION, MILLION)).microUsd).toBe(1_750_000n);
  });

  it('unpriced and unknown ids cost zero and are reported once', () => {
    const unpriced: string[] = [];
    const calculator = GeminiPricing.calculator({ onUnpriced: (id) => unpriced.push(id) });
    const usage = Usage.of(MILLION, MILLION);
    expect(calculator.cost('gemini-3.1-pro-preview', usage).microUsd).toBe(0n);
    expect(calculator.cost('gemini-3.1-pro-preview', usage).microUsd).toBe(0n);
    expect(calculator.cost('gemini-9', usage).microUsd).toBe(0n);
    expect(unpriced).toEqual(['gemini-3.1-pro-preview', 'gemini-9']);
    expect(GeminiPricing.AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
