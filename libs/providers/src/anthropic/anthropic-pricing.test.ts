import { Usage } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { AnthropicPricing } from './anthropic-pricing.js';
import { CachePolicy } from './cache-policy.js';

const MILLION = 1_000_000;

describe('AnthropicPricing', () => {
  it('prices each usage class at the list rate, the cache write at the policy TTL', () => {
    const usage = Usage.of(MILLION, MILLION, { cacheWriteTokens: MILLION, cacheReadTokens: MILLION });
    // claude-opus-5: input $5, output $25, cache read $0.50; writes $6.25 (5 min) or $10 (1 h).
    expect(AnthropicPricing.calculator(CachePolicy.shortLived()).cost('claude-opus-5', usage).microUsd).toBe(
      36_750_000n,
    );
    expect(AnthropicPricing.calculator(CachePolicy.longLived()).cost('claude-opus-5', usage).microUsd).toBe(
      40_500_000n,
    );
  });

  it('prices dated snapshots as their family and unknown ids at zero', () => {
    const unpriced: string[] = [];
    const calculator = AnthropicPricing.calculator(CachePolicy.shortLived(), {
      onUnpriced: (modelId) => unpriced.push(modelId),
    });
    const usage = Usage.of(2 * MILLION, 0);
    expect(calculator.cost('claude-haiku-4-5-20251001', usage).microUsd).toBe(2_000_000n);
    expect(calculator.cost('claude-unknown', usage).microUsd).toBe(0n);
    expect(calculator.cost('claude-unknown', usage).microUsd).toBe(0n);
    expect(unpriced).toEqual(['claude-unknown']);
    expect(AnthropicPricing.pricing('claude-unknown', CachePolicy.shortLived())).toBeUndefined();
  });

  it('states when the rates were checked', () => {
    expect(AnthropicPricing.AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
