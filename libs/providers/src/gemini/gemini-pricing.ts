/**
 * Gemini list prices as core Pricing, per catalogued model that has one: input, cached input (the
 * cache-read rate) and output (thinking tokens included, as Google bills them). Gemini bills no cache
 * write per token, so that class is priced as input. A model without a price costs zero.
 */
import { type CostCalculator, Pricing } from '@helios/core';
import { pricedCalculator, type UnpricedOptions } from '../shared/priced-calculator.js';
import { findGeminiModel } from './gemini-catalogue.js';

/** When the rates were last checked (a copy of Google's pricing page dated that day). */
const AS_OF = '2026-07-04';

/** The model's rates, or undefined for an id without a catalogued price. */
function pricing(modelId: string): Pricing | undefined {
  const prices = findGeminiModel(modelId)?.prices;
  if (prices === undefined) return undefined;
  return Pricing.ofUsdPerMillion(prices.input, prices.output, { cacheRead: prices.cachedInput });
}

export type GeminiPricingOptions = UnpricedOptions;

/** A CostCalculator for every priced Gemini model. */
function calculator(options: GeminiPricingOptions = {}): CostCalculator {
  return pricedCalculator(pricing, options);
}

export const GeminiPricing = { AS_OF, pricing, calculator } as const;
