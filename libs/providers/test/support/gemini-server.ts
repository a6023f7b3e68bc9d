/** A Gemini model pointed at a recorded-stream server (canonical `/{version}/…` paths), closed after each test. */
import { type Model, ModelConfig, type ModelConfigOptions } from '@helios/core';
import { type RecordedStreamServer, type ResponsePlan, serveRecordedStream } from '@helios/testing';
import { createGeminiModel } from '../../src/gemini/gemini-model.js';

export const GEMINI_KEY = 'AIzaSyTest-gemini-key-0123456789abcdef';

export interface GeminiFixture {
  readonly server: RecordedStreamServer;
  readonly model: Model;
}

const open: GeminiFixture[] = [];

export async function startGemini(
  plan: ResponsePlan,
  options: ModelConfigOptions & { readonly modelId?: string } = {},
): Promise<GeminiFixture> {
  const { modelId = 'gemini-3-flash-preview', ...config } = options;
  const server = await serveRecordedStream(plan);
  const model = createGeminiModel(modelId, ModelConfig.create({ apiKey: GEMINI_KEY, ...config }), {
    host: server.url,
  });
  const fixture = { server, model };
  open.push(fixture);
  return fixture;
}

export async function stopGemini(): Promise<void> {
  for (const { server, model } of open.splice(0)) {
    await model.close();
    // A test that cut the connection closed the server already.
    await server.close().catch((error: unknown) => {
      if (!(error instanceof Error && error.message.includes('not running'))) throw error;
    });
  }
}
