/**
 * A model's rates, in micro-USD per million tokens, one per disjoint usage class. Cost per class is
 * tokens × rate / 1,000,000, floored, then summed, all in bigint.
 */
import { InvalidArgumentError } from '../common/helios-error.js';
import { type Usage } from '../model/usage.js';
import { CostEstimate } from './cost-estimate.js';
import { usdToMicroUsd } from './usd.js';

const TOKENS_PER_MILLION = 1_000_000n;

export interface Pricing {
  readonly inputMicroUsdPerMillion: bigint;
  readonly outputMicroUsdPerMillion: bigint;
  readonly cacheWriteMicroUsdPerMillion: bigint;
  readonly cacheReadMicroUsdPerMillion: bigint;
}

/** The cache classes' rates, when they differ from the input rate (their default). */
export interface CacheRates<T> {
  readonly cacheWrite?: T;
  readonly cacheRead?: T;
}

function ofMicroUsdPerMillion(input: bigint, output: bigint, cache: CacheRates<bigint> = {}): Pricing {
  const cacheWrite = cache.cacheWrite ?? input;
  const cacheRead = cache.cacheRead ?? input;
  for (const [field, rate] of [
    ['input', input],
    ['output', output],
    ['cacheWrite', cacheWrite],
    ['cacheRead', cacheRead],
  ] as const) {
    if (rate < 0n) throw new InvalidArgumentError(`${field} rate must be ≥ 0, got ${rate}`);
  }
  return Object.freeze({
    inputMicroUsdPerMillion: input,
    outputMicroUsdPerMillion: output,
    cacheWriteMicroUsdPerMillion: cacheWrite,
    cacheReadMicroUsdPerMillion: cacheRead,
  });
}

/** Rates as a rate card states them, USD per million tokens; cache rates default to the input rate. */
function ofUsdPerMillion(
  input: number | string,
  output: number | string,
  cache: CacheRates<number | string> = {},
): Pricing {
  return ofMicroUsdPerMillion(usdToMicroUsd(input, 'input rate'), usdToMicroUsd(output, 'output rate'), {
    cacheWrite: usdToMicroUsd(cache.cacheWrite ?? input, 'cacheWrite rate'),
    cacheRead: usdToMicroUsd(cache.cacheRead ?? input, 'cacheRead rate'),
  });
}

/** Anthropic's cache multipliers: writes at 1.25× and reads at 0.10× the input rate. */
function anthropicCaching(input: number | string, output: number | string): Pricing {
  const inputRate = usdToMicroUsd(input, 'input rate');
  return ofMicroUsdPerMillion(inputRate, usdToMicroUsd(output, 'output rate'), {
    cacheWrite: (inputRate * 125n) / 100n,
    cacheRead: inputRate / 10n,
  });
}

function cost(pricing: Pricing, usage: Usage): CostEstimate {
  const part = (tokens: number, rate: bigint): bigint => (BigInt(tokens) * rate) / TOKENS_PER_MILLION;
  return CostEstimate.ofMicroUsd(
    part(usage.inputTokens, pricing.inputMicroUsdPerMillion) +
      part(usage.outputTokens, pricing.outputMicroUsdPerMillion) +
      part(usage.cacheWriteTokens, pricing.cacheWriteMicroUsdPerMillion) +
      part(usage.cacheReadTokens, pricing.cacheReadMicroUsdPerMillion),
  );
}

export const Pricing = { ofMicroUsdPerMillion, ofUsdPerMillion, anthropicCaching, cost } as const;
