/**
 * @helios/providers — Model implementations for Anthropic, OpenAI (Responses API) and OpenAI-compatible
 * servers (Gemini is not built yet; `resolveModel` says so).
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  ANTHROPIC_API_KEY_VARIABLE,
  OPENAI_API_KEY_VARIABLE,
  OPENAI_BASE_URL_VARIABLE,
  resolveModel,
  type ResolveModelOptions,
} from './registry.js';
export {
  ProviderNotAvailableError,
  ProviderRejectedError,
  ProviderResponseError,
  ProviderTransientError,
} from './shared/provider-errors.js';

export {
  ANTHROPIC_BASE_URL,
  ANTHROPIC_PROVIDER,
  ANTHROPIC_VERSION,
  createAnthropicModel,
} from './anthropic/anthropic-model.js';
export {
  ANTHROPIC_MODELS,
  type AnthropicModelSpec,
  type AnthropicPrices,
  findAnthropicModel,
  type OffSpelling,
  type ReasoningRules,
  type SamplingRule,
} from './anthropic/anthropic-catalogue.js';
export { AnthropicPricing } from './anthropic/anthropic-pricing.js';
export { CachePolicy } from './anthropic/cache-policy.js';
export { METADATA as ANTHROPIC_METADATA } from './anthropic/anthropic-metadata.js';
export { MAX_PAUSE_CONTINUATIONS } from './anthropic/anthropic-turn.js';

export { createOpenAiModel, OPENAI_BASE_URL, OPENAI_PROVIDER } from './openai/openai-model.js';
export {
  findOpenAiModel,
  OPENAI_MODELS,
  OPENAI_RULES,
  type OpenAiModelSpec,
  type OpenAiOffSpelling,
  type OpenAiPrices,
  type OpenAiReasoningRules,
  type OpenAiSamplingRule,
} from './openai/openai-catalogue.js';
export { OpenAiPricing, type OpenAiPricingOptions } from './openai/openai-pricing.js';
export { OPENAI_METADATA } from './openai/openai-stream.js';

export {
  createOpenAiCompatibleModel,
  OPENAI_COMPATIBLE_PROVIDER,
} from './openai-compatible/openai-compatible-model.js';

export { fromLanguageModel, type FromLanguageModelOptions } from './ai-sdk/from-language-model.js';
