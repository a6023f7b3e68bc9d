/**
 * A provider's model pointed at a recorded-stream server, closed (with its server) after each test:
 * the one lifecycle every provider's scenario fixture shares.
 */
import { type Model } from '@helios/core';
import { type RecordedStreamServer, type ResponsePlan, serveRecordedStream } from '@helios/testing';

export interface RecordedModel {
  readonly server: RecordedStreamServer;
  readonly model: Model;
}

const open: RecordedModel[] = [];

/** Serves `plan`, builds the model against the server's URL, and keeps both for `stopRecordedModels`. */
export async function startRecordedModel(
  plan: ResponsePlan,
  makeModel: (serverUrl: string) => Model,
): Promise<RecordedModel> {
  const server = await serveRecordedStream(plan);
  const fixture = { server, model: makeModel(server.url) };
  open.push(fixture);
  return fixture;
}

export async function stopRecordedModels(): Promise<void> {
  for (const { server, model } of open.splice(0)) {
    await model.close();
    // A test that cut the connection closed the server already.
    await server.close().catch((error: unknown) => {
      if (!(error instanceof Error && error.message.includes('not running'))) throw error;
    });
  }
}
