/**
 * The models this process resolved, by `provider/model` name (`@helios/providers`' `resolveModel`:
 * keys and base URLs from the options or the environment; a missing one fails here, naming the
 * variable). A Model owns its HTTP pool, and whoever creates it closes it: the registry closes every
 * model it made at shutdown. Sessions (the runtime issue) take their models from here.
 */
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CostCalculator, type Model, type Usage } from '@helios/core';
import {
  AnthropicPricing,
  CachePolicy,
  GeminiPricing,
  OpenAiPricing,
  resolveModel,
  type ResolveModelOptions,
} from '@helios/providers';

@Injectable()
export class ModelRegistry implements OnApplicationShutdown {
  readonly #made: Model[] = [];
  readonly #logger = new Logger('Providers');
  /** Said once per model id for the whole process, whichever calculator met it. */
  readonly #unpriced = new Set<string>();

  /** A new Model for `name` (`anthropic/…`, `openai/…`, `gemini/…`, `openai-compatible/…`). */
  resolve(name: string, options: ResolveModelOptions = {}): Model {
    const model = resolveModel(name, options);
    this.#made.push(model);
    return model;
  }

  /**
   * The list prices of a provider's models (`anthropic`, `openai`, `gemini`; the cache-write rate of
   * `cachePolicy` for Anthropic). A model without a price — any OpenAI-compatible server's, an unknown
   * id — costs zero, and the log says so once per model id.
   */
  costCalculator(provider: string, cachePolicy: CachePolicy = CachePolicy.shortLived()): CostCalculator {
    const options = { onUnpriced: (modelId: string) => this.#sayUnpriced(provider, modelId) };
    switch (provider) {
      case 'anthropic':
        return AnthropicPricing.calculator(cachePolicy, options);
      case 'openai':
        return OpenAiPricing.calculator(options);
      case 'gemini':
        return GeminiPricing.calculator(options);
      default:
        return Object.freeze({
          cost: (modelId: string, usage: Usage) => {
            this.#sayUnpriced(provider, modelId);
            return CostCalculator.ZERO.cost(modelId, usage);
          },
        });
    }
  }

  #sayUnpriced(provider: string, modelId: string): void {
    const key = `${provider}/${modelId}`;
    if (this.#unpriced.has(key)) return;
    this.#unpriced.add(key);
    this.#logger.warn(`no list price for model '${key}': its calls are counted at zero cost`);
  }

  async onApplicationShutdown(): Promise<void> {
    const made = this.#made.splice(0);
    await Promise.allSettled(made.map((model) => model.close()));
  }
}
