/** An Anthropic model pointed at a recorded-stream server, closed after each test. */
import { type Model, ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type RecordedStreamServer, type ResponsePlan, serveRecordedStream } from '@helios/testing';
import { createAnthropicModel } from '../../src/anthropic/anthropic-model.js';
import { CachePolicy } from '../../src/anthropic/cache-policy.js';

export const ANTHROPIC_KEY = 'sk-ant-test-key-0123456789abcdef';

export interface AnthropicFixture {
  readonly server: RecordedStreamServer;
  readonly model: Model;
}

const open: AnthropicFixture[] = [];

export async function startAnthropic(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string; readonly cachePolicy?: CachePolicy } = {},
): Promise<AnthropicFixture> {
  const { modelId = 'claude-opus-5', cachePolicy = CachePolicy.disabled(), ...config } = options;
  const server = await serveRecordedStream(plan);
  const model = createAnthropicModel(
    modelId,
    ModelConfig.create({ apiKey: ANTHROPIC_KEY, baseUrl: server.url, ...config }),
    cachePolicy,
  );
  const fixture = { server, model };
  open.push(fixture);
  return fixture;
}

export async function stopAnthropic(): Promise<void> {
  for (const { server, model } of open.splice(0)) {
    await model.close();
    // A test that cut the connection closed the server already.
    await server.close().catch((error: unknown) => {
      if (!(error instanceof Error && error.message.includes('not running'))) throw error;
    });
  }
}
