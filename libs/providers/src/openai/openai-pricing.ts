/**
 * OpenAI list prices as core Pricing, per catalogued model that has one: input, cached input (the
 * cache-read rate) and output. OpenAI bills no separate cache write, so that class is priced as input.
 * A model without a price (unknown id, or a catalogued model whose rate is not checked yet) costs zero.
 */
import { type CostCalculator, Pricing } from '@helios/core';
import { pricedCalculator, type UnpricedOptions } from '../shared/priced-calculator.js';
import { findOpenAiModel } from './openai-catalogue.js';

/** When the rates were last checked against OpenAI's pricing page. */
const AS_OF = '2026-06-01';

/** The model's rates, or undefined for an id without a catalogued price. */
function pricing(modelId: string): Pricing | undefined {
  const prices = findOpenAiModel(modelId)?.prices;
  if (prices === undefined) return undefined;
  return Pricing.ofUsdPerMillion(prices.input, prices.output, { cacheRead: prices.cachedInput });
}

export type OpenAiPricingOptions = UnpricedOptions;

/** A CostCalculator for every priced OpenAI model (dated snapshot ids included). */
function calculator(options: OpenAiPricingOptions = {}): CostCalculator {
  return pricedCalculator(pricing, options);
}

export const OpenAiPricing = { AS_OF, pricing, calculator } as const;
