/**
 * Any AI SDK provider as a Helios Model: `fromLanguageModel(model)` adapts a language model of the AI
 * SDK's specification (`@ai-sdk/provider` `LanguageModelV3`, what `@ai-sdk/*` community providers —
 * Bedrock, Mistral, Groq, Azure, … — implement) through `doStream`: streaming, tools, usage and abort.
 * Retries stay ours (FaultTolerance and the session): the adapter makes one call per turn.
 */
import { createModel, type Model } from '@helios/core';
import { type LanguageModelV3 } from '@ai-sdk/provider';
import { callOptions } from './ai-sdk-prompt.js';
import { aiSdkChunks } from './ai-sdk-stream.js';

export interface FromLanguageModelOptions {
  /** Tokens the model accepts, when known (the specification does not say). */
  readonly contextWindow?: number;
  /** Most tokens one answer may have, when known. */
  readonly maxOutputTokens?: number;
}

export function fromLanguageModel(model: LanguageModelV3, options: FromLanguageModelOptions = {}): Model {
  const provider = model.provider;
  return createModel({
    id: model.modelId,
    provider,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    async *stream(request, signal) {
      const { stream } = await model.doStream(callOptions(request, signal));
      yield* aiSdkChunks(stream, provider);
    },
  });
}
