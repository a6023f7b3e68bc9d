/** An OpenAI Responses model pointed at a recorded-stream server, closed after each test. */
import { type Model, ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type RecordedStreamServer, type ResponsePlan, serveRecordedStream } from '@helios/testing';
import { createOpenAiModel } from '../../src/openai/openai-model.js';

export const OPENAI_KEY = 'sk-test-openai-responses-0123456789';

export interface OpenAiFixture {
  readonly server: RecordedStreamServer;
  readonly model: Model;
}

const open: OpenAiFixture[] = [];

export async function startOpenAi(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string } = {},
): Promise<OpenAiFixture> {
  const { modelId = 'gpt-5.5', ...config } = options;
  const server = await serveRecordedStream(plan);
  const model = createOpenAiModel(
    modelId,
    ModelConfig.create({ apiKey: OPENAI_KEY, baseUrl: server.url, ...config }),
  );
  const fixture = { server, model };
  open.push(fixture);
  return fixture;
}

export async function stopOpenAi(): Promise<void> {
  for (const { server, model } of open.splice(0)) {
    await model.close();
    // A test that cut the connection closed the server already.
    await server.close().catch((error: unknown) => {
      if (!(error instanceof Error && error.message.includes('not running'))) throw error;
    });
  }
}
