import { describe, expect, it } from 'vitest';
import { Usage } from '../model/usage.js';
import { CostCalculator } from './cost-calculator.js';
import { CostEstimate } from './cost-estimate.js';
import { Pricing } from './pricing.js';
import { formatMicroUsd, usdToMicroUsd } from './usd.js';

describe('usdToMicroUsd', () => {
  it('converts decimal amounts exactly', () => {
    expect(usdToMicroUsd('3.75')).toBe(3_750_000n);
    expect(usdToMicroUsd(0.3)).toBe(300_000n);
    expect(usdToMicroUsd(0.1 + 0.2)).toBe(300_000n);
    expect(usdToMicroUsd(15)).toBe(15_000_000n);
    expect(usdToMicroUsd(1e-7)).toBe(0n);
    expect(usdToMicroUsd('0.0000005')).toBe(1n);
    expect(usdToMicroUsd('0.0000004')).toBe(0n);
  });

  it('refuses negative, non-finite and malformed amounts', () => {
    expect(() => usdToMicroUsd(-1)).toThrow(/non-negative/);
    expect(() => usdToMicroUsd(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => usdToMicroUsd('1,5')).toThrow(/decimal USD/);
  });

  it('formats micro-USD', () => {
    expect(formatMicroUsd(1_234_567n)).toBe('1.234567');
    expect(formatMicroUsd(-5n)).toBe('-0.000005');
  });
});

describe('Pricing', () => {
  it('prices each usage class separately and floors each', () => {
    const pricing = Pricing.ofUsdPerMillion(3, 15, { cacheWrite: 3.75, cacheRead: 0.3 });
    expect(
      Pricing.cost(
        pricing,
        Usage.of(1_000_000, 1_000_000, { cacheWriteTokens: 1_000_000, cacheReadTokens: 1_000_000 }),
      ).microUsd,
    ).toBe(22_050_000n);
    // 1 input token at 3 µ$/token = 3 µ$; 1 cache-read token at 0.3 µ$ floors to 0
    expect(Pricing.cost(pricing, Usage.of(1, 0, { cacheReadTokens: 1 })).microUsd).toBe(3n);
    expect(Pricing.cost(pricing, Usage.of(0, 0, { cacheReadTokens: 3 })).microUsd).toBe(0n);
    expect(Pricing.cost(pricing, Usage.of(0, 0, { cacheReadTokens: 4 })).microUsd).toBe(1n);
  });

  it('defaults cache rates to the input rate and knows Anthropic multipliers', () => {
    expect(Pricing.ofUsdPerMillion(2, 8)).toMatchObject({
      cacheWriteMicroUsdPerMillion: 2_000_000n,
      cacheReadMicroUsdPerMillion: 2_000_000n,
    });
    expect(Pricing.anthropicCaching(3, 15)).toEqual({
      inputMicroUsdPerMillion: 3_000_000n,
      outputMicroUsdPerMillion: 15_000_000n,
      cacheWriteMicroUsdPerMillion: 3_750_000n,
      cacheReadMicroUsdPerMillion: 300_000n,
    });
    expect(() => Pricing.ofMicroUsdPerMillion(-1n, 0n)).toThrow(/input rate/);
  });
});

describe('CostCalculator', () => {
  it('uses a static table and prices unknown models at zero', () => {
    const calculator = CostCalculator.staticTable({ 'claude-x': Pricing.ofUsdPerMillion(3, 15) });
    expect(calculator.cost('claude-x', Usage.of(1000, 100)).microUsd).toBe(4_500n);
    expect(calculator.cost('unknown', Usage.of(1000, 100))).toBe(CostEstimate.ZERO);
    const fromMap = CostCalculator.staticTable(new Map([['m', Pricing.ofUsdPerMillion('1', '1')]]));
    expect(fromMap.cost('m', Usage.of(1_000_000, 0)).usd()).toBe('1.000000');
    expect(CostCalculator.ZERO.cost('m', Usage.of(5, 5))).toBe(CostEstimate.ZERO);
  });
});

describe('CostEstimate', () => {
  it('adds, formats and serialises without floats', () => {
    const cost = CostEstimate.ofMicroUsd(1_234_567n).plus(CostEstimate.ofUsd('0.000433'));
    expect(cost.microUsd).toBe(1_235_000n);
    expect(cost.usd()).toBe('1.235000');
    expect(cost.formatUsd()).toBe('$1.24');
    expect(CostEstimate.ofMicroUsd(1_234_999n).formatUsd()).toBe('$1.23');
    expect(CostEstimate.ZERO.formatUsd()).toBe('$0.00');
    expect(JSON.stringify({ cost })).toBe('{"cost":"1235000"}');
    expect(`${cost}`).toBe('1.235000 USD');
    expect(CostEstimate.sum([cost, cost]).microUsd).toBe(2_470_000n);
    expect(CostEstimate.ofMicroUsd(0n)).toBe(CostEstimate.ZERO);
    expect(CostEstimate.MICRO_USD_PER_USD).toBe(1_000_000n);
  });

  it('refuses negative or non-bigint amounts', () => {
    expect(() => CostEstimate.ofMicroUsd(-1n)).toThrow(/non-negative bigint/);
    expect(() => CostEstimate.ofMicroUsd(5 as unknown as bigint)).toThrow(/bigint/);
  });
});
