/**
 * @helios/providers — Model implementations for Anthropic, OpenAI (Responses API), Gemini (Interactions
 * API, plus its Files API client) and OpenAI-compatible servers.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  ANTHROPIC_API_KEY_VARIABLE,
  GEMINI_API_KEY_VARIABLE,
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

export { createGeminiModel, GEMINI_PROVIDER } from './gemini/gemini-model.js';
export {
  DEFAULT_GEMINI_API_VERSION,
  GEMINI_API_HOST,
  GEMINI_API_REVISION,
  GEMINI_API_VERSIONS,
  type GeminiApiVersion,
  type GeminiEndpointOptions,
} from './gemini/gemini-endpoint.js';
export {
  findGeminiModel,
  GEMINI_MODELS,
  type GeminiModelSpec,
  type GeminiPrices,
} from './gemini/gemini-catalogue.js';
export { GeminiPricing, type GeminiPricingOptions } from './gemini/gemini-pricing.js';
export { GEMINI_METADATA } from './gemini/gemini-metadata.js';
export { GeminiFilesClient, type UploadOptions, type UploadSource } from './gemini/gemini-files.js';
export { type GeminiFile, ManagedFile } from './gemini/gemini-managed-file.js';
export { isGeminiFileName } from './gemini/gemini-file-name.js';
