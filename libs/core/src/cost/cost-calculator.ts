/** Prices a model call: model id + Usage → CostEstimate. */
import { type Usage } from '../model/usage.js';
import { CostEstimate } from './cost-estimate.js';
import { Pricing } from './pricing.js';

export interface CostCalculator {
  cost(modelId: string, usage: Usage): CostEstimate;
}

export const CostCalculator = {
  /** Everything is free: the default when no rates are configured. */
  ZERO: Object.freeze({ cost: () => CostEstimate.ZERO }) as CostCalculator,

  /** Fixed rates per model id; a model not in the table costs zero. */
  staticTable(table: ReadonlyMap<string, Pricing> | Readonly<Record<string, Pricing>>): CostCalculator {
    const rates = new Map(table instanceof Map ? table : Object.entries(table));
    return Object.freeze({
      cost(modelId: string, usage: Usage): CostEstimate {
        const pricing = rates.get(modelId);
        return pricing ? Pricing.cost(pricing, usage) : CostEstimate.ZERO;
      },
    });
  },
} as const;
