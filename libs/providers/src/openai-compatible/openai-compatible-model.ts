/**
 * A Model over an OpenAI-compatible Chat Completions server (Ollama, vLLM, llama.cpp, …): the base URL
 * is required (e.g. `http://localhost:11434/v1`), the key optional (sent as a bearer token when set).
 * There is no catalogue: the server knows its models, so the id is sent as given.
 */
import { createModel, InvalidArgumentError, type Model, type ModelConfig } from '@helios/core';
import { ApiKey } from '../shared/api-key.js';
import { endpoint, type HttpSettings, postForEvents } from '../shared/provider-http.js';
import { checkChatConfig } from './chat-options.js';
import { buildChatRequest } from './chat-request.js';
import { chatChunks } from './chat-stream.js';

export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

export function createOpenAiCompatibleModel(modelId: string, config: ModelConfig): Model {
  if (modelId.trim() === '') throw new InvalidArgumentError('openai-compatible: model id must be non-blank');
  const baseUrl = config.baseUrl;
  if (baseUrl === undefined) {
    throw new InvalidArgumentError(
      `openai-compatible model '${modelId}' needs a baseUrl (e.g. http://localhost:11434/v1)`,
    );
  }
  checkChatConfig(modelId, config);
  const apiKey = ApiKey.of(config.apiKey);
  const http: HttpSettings = {
    provider: OPENAI_COMPATIBLE_PROVIDER,
    apiKey,
    responseTimeoutMs: config.responseTimeoutMs,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
  };
  const url = endpoint(baseUrl, '/chat/completions');
  return createModel({
    id: modelId,
    provider: OPENAI_COMPATIBLE_PROVIDER,
    ...(config.contextWindow === undefined ? {} : { contextWindow: config.contextWindow }),
    ...(config.maxOutputTokens === undefined ? {} : { maxOutputTokens: config.maxOutputTokens }),
    rawOutputCapture: config.rawOutputCapture,
    async *stream(request, signal) {
      const body = buildChatRequest(modelId, config, request);
      const headers = config.effectiveHeaders(
        apiKey === undefined ? {} : { authorization: `Bearer ${apiKey.reveal()}` },
      );
      yield* chatChunks(postForEvents(http, { url, headers, body, signal }), http);
    },
  });
}
