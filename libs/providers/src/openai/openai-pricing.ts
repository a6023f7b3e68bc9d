/**
 * OpenAI list prices as core Pricing, per catalogued model that has one: input, cached input (the
 * cache-read rate) and output. OpenAI bills no separate cache write, so that class is priced as input.
 * A model without a price (unknown id, or a catalogued model whose rate is not checked yet) costs zero.
 */
import { type CostCalculator, CostEstimate, Pricing, type Usage } from '@helios/core';
import { findOpenAiModel } from './openai-catalogue.js';

/** When the rates were last checked against OpenAI's pricing page. */
const AS_OF = '2026-06-01';

/** The model's rates, or undefined for an id without a catalogued price. */
function pricing(modelId: string): Pricing | undefined {
  const prices = findOpenAiModel(modelId)?.prices;
  if (prices === undefined) return undefined;
  return Pricing.ofUsdPerMillion(prices.input, prices.output, { cacheRead: prices.cachedInput });
}

export interface OpenAiPricingOptions {
  /** Told once per model id that has no price (it costs zero), e.g. to write one log line. */
  readonly onUnpriced?: (modelId: string) => void;
}

/** A CostCalculator for every priced OpenAI model (dated snapshot ids included). */
function calculator(options: OpenAiPricingOptions = {}): CostCalculator {
  const told = new Set<string>();
  return Object.freeze({
    cost(modelId: string, usage: Usage): CostEstimate {
      const rates = pricing(modelId);
      if (rates !== undefined) return Pricing.cost(rates, usage);
      if (!told.has(modelId)) {
        told.add(modelId);
        options.onUnpriced?.(modelId);
      }
      return CostEstimate.ZERO;
    },
  });
}

export const OpenAiPricing = { AS_OF, pricing, calculator } as const;
