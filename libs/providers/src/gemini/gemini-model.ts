/**
 * A Model over Gemini's Interactions API (`POST {prefix}/interactions?alt=sse`, streamed). The version
 * (`v1` or `v1beta`, config `apiVersion`) is fixed per instance and reported as `gemini.apiVersion`;
 * provider continuation follows config `providerContinuation` (default on). The config is checked
 * against the catalogue at creation; an id the catalogue does not know is sent as given. The key
 * travels in `x-goog-api-key`, held where neither errors nor `inspect` can show it. This provider
 * logs nothing: no prompts, answers, thinking, keys or file URIs.
 */
import { createModel, type Model, type ModelConfig } from '@helios/core';
import { keyedHttp } from '../shared/model-setup.js';
import { findGeminiModel } from './gemini-catalogue.js';
import { GEMINI_API_REVISION, geminiEndpoint, type GeminiEndpointOptions, under } from './gemini-endpoint.js';
import { geminiRequestOptions } from './gemini-options.js';
import { geminiTurn, type GeminiTarget } from './gemini-turn.js';

export const GEMINI_PROVIDER = 'gemini';

export function createGeminiModel(
  modelId: string,
  config: ModelConfig,
  endpointOptions: GeminiEndpointOptions = {},
): Model {
  const http = keyedHttp(GEMINI_PROVIDER, modelId, config);
  const { apiKey } = http;
  const spec = findGeminiModel(modelId);
  const options = geminiRequestOptions(modelId, spec, config);
  const { apiVersion, prefix } = geminiEndpoint(`gemini model '${modelId}'`, config, endpointOptions);
  const defaults = { 'api-revision': GEMINI_API_REVISION };
  const target: GeminiTarget = {
    modelId,
    url: under(prefix, '/interactions?alt=sse'),
    apiVersion,
    // Built per request, so the key is read from its holder only on the way to the wire.
    headers: () =>
      config.effectiveHeaders(
        apiKey === undefined ? defaults : { ...defaults, 'x-goog-api-key': apiKey.reveal() },
      ),
    http,
    options,
    providerContinuation: config.providerContinuation,
  };
  const contextWindow = config.contextWindow ?? spec?.contextWindow;
  return createModel({
    id: modelId,
    provider: GEMINI_PROVIDER,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    rawOutputCapture: config.rawOutputCapture,
    stream: (request, signal) => geminiTurn(target, request, signal),
  });
}
