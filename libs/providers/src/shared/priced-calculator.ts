/**
 * The CostCalculator every provider's price list gives: a model with rates is priced by core's
 * Pricing; one without (an unknown id, or a catalogued model whose rate is not checked yet) costs zero,
 * and `onUnpriced` is told so once per model id (for one log line, as the package itself logs nothing).
 */
import { type CostCalculator, CostEstimate, Pricing, type Usage } from '@helios/core';

export interface UnpricedOptions {
  /** Told once per model id that has no price (it costs zero), e.g. to write one log line. */
  readonly onUnpriced?: (modelId: string) => void;
}

export function pricedCalculator(
  pricing: (modelId: string) => Pricing | undefined,
  options: UnpricedOptions = {},
): CostCalculator {
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
