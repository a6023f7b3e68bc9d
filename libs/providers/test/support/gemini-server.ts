/** A Gemini model pointed at a recorded-stream server (canonical `/{version}/…` paths), closed after each test. */
import { ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type ResponsePlan } from '@helios/testing';
import { createGeminiModel } from '../../src/gemini/gemini-model.js';
import { type RecordedModel, startRecordedModel, stopRecordedModels } from './recorded-model.js';

export const GEMINI_KEY = 'AIzaSyTest-gemini-key-0123456789abcdef';

export type GeminiFixture = RecordedModel;

export async function startGemini(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string } = {},
): Promise<GeminiFixture> {
  const { modelId = 'gemini-3-flash-preview', ...config } = options;
  return startRecordedModel(plan, (url) =>
    createGeminiModel(modelId, ModelConfig.create({ apiKey: GEMINI_KEY, ...config }), {
      host: url,
    }),
  );
}

export const stopGemini = stopRecordedModels;
