/**
 * A Model over Anthropic's Messages API. The config is checked against the catalogue at creation
 * (refusals name model, value and accepted values); an id the catalogue does not know is sent as given.
 * The key travels in `x-api-key`, held where neither errors nor `inspect` can show it.
 */
import { createModel, type Model, type ModelConfig } from '@helios/core';
import { keyedHttp } from '../shared/model-setup.js';
import { endpoint } from '../shared/provider-http.js';
import { findAnthropicModel } from './anthropic-catalogue.js';
import { anthropicRequestOptions } from './anthropic-options.js';
import { anthropicTurn, type AnthropicEndpoint } from './anthropic-turn.js';
import { CachePolicy } from './cache-policy.js';

export const ANTHROPIC_PROVIDER = 'anthropic';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export function createAnthropicModel(
  modelId: string,
  config: ModelConfig,
  cachePolicy: CachePolicy = CachePolicy.shortLived(),
): Model {
  const http = keyedHttp(ANTHROPIC_PROVIDER, modelId, config);
  const { apiKey } = http;
  const spec = findAnthropicModel(modelId);
  const options = anthropicRequestOptions(modelId, spec, config);
  const defaults: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  if (options.betas.length > 0) defaults['anthropic-beta'] = options.betas.join(',');
  const target: AnthropicEndpoint = {
    modelId,
    url: endpoint(config.effectiveBaseUrl(ANTHROPIC_BASE_URL), '/v1/messages'),
    // Built per request, so the key is read from its holder only on the way to the wire.
    headers: () =>
      config.effectiveHeaders(
        apiKey === undefined ? defaults : { ...defaults, 'x-api-key': apiKey.reveal() },
      ),
    http,
    options,
    cachePolicy,
    bindsThinkingToPrompt: spec?.bindsThinkingToPrompt ?? false,
  };
  const contextWindow = config.contextWindow ?? spec?.contextWindow;
  return createModel({
    id: modelId,
    provider: ANTHROPIC_PROVIDER,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    maxOutputTokens: options.maxTokens,
    rawOutputCapture: config.rawOutputCapture,
    stream: (request, signal) => anthropicTurn(target, request, signal),
  });
}
