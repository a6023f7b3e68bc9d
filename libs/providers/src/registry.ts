/**
 * `provider/model` → a Model, with keys and base URLs taken from the environment when not given. What
 * is missing fails here, at resolve time, naming the variable to set, never at the first request.
 */
import { InvalidArgumentError, type Model, ModelConfig, type ModelConfigOptions } from '@helios/core';
import { createAnthropicModel } from './anthropic/anthropic-model.js';
import { CachePolicy } from './anthropic/cache-policy.js';
import { createGeminiModel } from './gemini/gemini-model.js';
import { createOpenAiModel } from './openai/openai-model.js';
import { createOpenAiCompatibleModel } from './openai-compatible/openai-compatible-model.js';

export interface ResolveModelOptions extends ModelConfigOptions {
  /** Anthropic only; default CachePolicy.shortLived(). */
  readonly cachePolicy?: CachePolicy;
  /** Where default keys and URLs are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const ANTHROPIC_API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';
export const OPENAI_API_KEY_VARIABLE = 'OPENAI_API_KEY';
export const OPENAI_BASE_URL_VARIABLE = 'OPENAI_BASE_URL';
export const GEMINI_API_KEY_VARIABLE = 'GEMINI_API_KEY';

const AVAILABLE = ['anthropic', 'openai', 'gemini', 'openai-compatible'];

export function resolveModel(name: string, options: ResolveModelOptions = {}): Model {
  const slash = name.indexOf('/');
  const provider = slash < 0 ? '' : name.slice(0, slash);
  const modelId = slash < 0 ? '' : name.slice(slash + 1);
  if (provider === '' || modelId.trim() === '') {
    throw new InvalidArgumentError(`model name '${name}' must be '<provider>/<model>'`);
  }
  const { cachePolicy, env = process.env, ...configOptions } = options;
  switch (provider) {
    case 'anthropic': {
      const config = keyedConfig(name, configOptions, env, ANTHROPIC_API_KEY_VARIABLE);
      return createAnthropicModel(modelId, config, cachePolicy ?? CachePolicy.shortLived());
    }
    case 'openai':
      return createOpenAiModel(modelId, keyedConfig(name, configOptions, env, OPENAI_API_KEY_VARIABLE));
    case 'gemini':
      return createGeminiModel(modelId, keyedConfig(name, configOptions, env, GEMINI_API_KEY_VARIABLE));
    case 'openai-compatible': {
      const baseUrl = configOptions.baseUrl ?? env[OPENAI_BASE_URL_VARIABLE];
      if (baseUrl === undefined || baseUrl.trim() === '') {
        throw new InvalidArgumentError(
          `model '${name}' needs a base URL: set ${OPENAI_BASE_URL_VARIABLE} or pass baseUrl`,
        );
      }
      return createOpenAiCompatibleModel(modelId, ModelConfig.create({ ...configOptions, baseUrl }));
    }
    default:
      throw new InvalidArgumentError(
        `unknown provider '${provider}' in '${name}'; available: ${AVAILABLE.join(', ')}`,
      );
  }
}

/** The config with the key from `options` or the variable; neither (and no base URL) fails, naming it. */
function keyedConfig(
  name: string,
  options: ModelConfigOptions,
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
): ModelConfig {
  const apiKey = options.apiKey ?? env[variable];
  if ((apiKey === undefined || apiKey.trim() === '') && options.baseUrl === undefined) {
    throw new InvalidArgumentError(`model '${name}' needs an API key: set ${variable} or pass apiKey`);
  }
  return ModelConfig.create({ ...options, ...(apiKey === undefined ? {} : { apiKey }) });
}
