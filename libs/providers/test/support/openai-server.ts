/** An OpenAI Responses model pointed at a recorded-stream server, closed after each test. */
import { ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type ResponsePlan } from '@helios/testing';
import { createOpenAiModel } from '../../src/openai/openai-model.js';
import { type RecordedModel, startRecordedModel, stopRecordedModels } from './recorded-model.js';

export const OPENAI_KEY = 'sk-test-openai-responses-0123456789';

export type OpenAiFixture = RecordedModel;

export async function startOpenAi(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string } = {},
): Promise<OpenAiFixture> {
  const { modelId = 'gpt-5.5', ...config } = options;
  return startRecordedModel(plan, (url) =>
    createOpenAiModel(modelId, ModelConfig.create({ apiKey: OPENAI_KEY, baseUrl: url, ...config })),
  );
}

export const stopOpenAi = stopRecordedModels;
