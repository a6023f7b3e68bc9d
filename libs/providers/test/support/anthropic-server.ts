/** An Anthropic model pointed at a recorded-stream server, closed after each test. */
import { ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type ResponsePlan } from '@helios/testing';
import { createAnthropicModel } from '../../src/anthropic/anthropic-model.js';
import { type RecordedModel, startRecordedModel, stopRecordedModels } from './recorded-model.js';
import { CachePolicy } from '../../src/anthropic/cache-policy.js';

export const ANTHROPIC_KEY = 'sk-ant-test-key-0123456789abcdef';

export type AnthropicFixture = RecordedModel;

export async function startAnthropic(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string; readonly cachePolicy?: CachePolicy } = {},
): Promise<AnthropicFixture> {
  const { modelId = 'claude-opus-5', cachePolicy = CachePolicy.disabled(), ...config } = options;
  return startRecordedModel(plan, (url) =>
    createAnthropicModel(
      modelId,
      ModelConfig.create({ apiKey: ANTHROPIC_KEY, baseUrl: url, ...config }),
      cachePolicy,
    ),
  );
}

export const stopAnthropic = stopRecordedModels;
