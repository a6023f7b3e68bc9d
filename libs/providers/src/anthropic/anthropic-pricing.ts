/**
 * Anthropic list prices as core Pricing, per catalogued model: input, output, cache read, and the
 * cache-write rate of the policy's TTL (1.25× input for five minutes, 2× for one hour). Server-tool
 * per-request fees are not included. A model the catalogue does not know costs zero.
 */
import { type CostCalculator, Pricing, usdToMicroUsd } from '@helios/core';
import { pricedCalculator, type UnpricedOptions } from '../shared/priced-calculator.js';
import { findAnthropicModel } from './anthropic-catalogue.js';
import { type CachePolicy } from './cache-policy.js';

/** When the rates were last checked against Anthropic's pricing page. */
const AS_OF = '2026-10-01';

function cacheWriteRate(inputMicroUsd: bigint, policy: CachePolicy): bigint {
  return policy.type === 'LongLived' ? inputMicroUsd * 2n : (inputMicroUsd * 125n) / 100n;
}

/** The model's rates under `policy`, or undefined for an id the catalogue does not know. */
function pricing(modelId: string, policy: CachePolicy): Pricing | undefined {
  const spec = findAnthropicModel(modelId);
  if (spec === undefined) return undefined;
  const input = usdToMicroUsd(spec.prices.input, 'input rate');
  return Pricing.ofMicroUsdPerMillion(input, usdToMicroUsd(spec.prices.output, 'output rate'), {
    cacheWrite: cacheWriteRate(input, policy),
    cacheRead: usdToMicroUsd(spec.prices.cacheRead, 'cache read rate'),
  });
}

/**
 * A CostCalculator for every catalogued Claude model (dated snapshot ids included); an unknown id costs
 * zero and is told to `onUnpriced` once.
 */
function calculator(policy: CachePolicy, options: UnpricedOptions = {}): CostCalculator {
  return pricedCalculator((modelId) => pricing(modelId, policy), options);
}

export const AnthropicPricing = { AS_OF, pricing, calculator } as const;
