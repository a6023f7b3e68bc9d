/**
 * A Model over OpenAI's Responses API (`POST {baseUrl}/v1/responses`, streamed). The config is checked
 * against the catalogue at creation (refusals name model, value and accepted values); an id the
 * catalogue does not know is sent as given. The key travels as a bearer token, held where neither
 * errors nor `inspect` can show it.
 */
import { createModel, type Model, type ModelConfig } from '@helios/core';
import { keyedHttp } from '../shared/model-setup.js';
import { endpoint, postForEvents } from '../shared/provider-http.js';
import { findOpenAiModel } from './openai-catalogue.js';
import { openAiRequestOptions } from './openai-options.js';
import { buildOpenAiBody } from './openai-request.js';
import { openAiChunks } from './openai-stream.js';

export const OPENAI_PROVIDER = 'openai';
export const OPENAI_BASE_URL = 'https://api.openai.com';

export function createOpenAiModel(modelId: string, config: ModelConfig): Model {
  const http = keyedHttp(OPENAI_PROVIDER, modelId, config);
  const { apiKey } = http;
  const spec = findOpenAiModel(modelId);
  const options = openAiRequestOptions(modelId, spec, config);
  const url = endpoint(config.effectiveBaseUrl(OPENAI_BASE_URL), '/v1/responses');
  const contextWindow = config.contextWindow ?? spec?.contextWindow;
  return createModel({
    id: modelId,
    provider: OPENAI_PROVIDER,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    rawOutputCapture: config.rawOutputCapture,
    async *stream(request, signal) {
      const body = buildOpenAiBody(modelId, options, request);
      // Built per request, so the key is read from its holder only on the way to the wire.
      const headers = config.effectiveHeaders(
        apiKey === undefined ? {} : { authorization: `Bearer ${apiKey.reveal()}` },
      );
      yield* openAiChunks(postForEvents(http, { url, headers, body, signal }), http);
    },
  });
}
