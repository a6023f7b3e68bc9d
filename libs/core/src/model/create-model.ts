/**
 * Builds a Model from a chunk source, so providers write only "send this request, yield chunks"; laziness,
 * abort, draining, structured parsing and the closed state come from here. `adaptBlockingModel` does the
 * same for models that can only answer in one piece.
 */
import { type OutputSchema } from '../schema/output-schema.js';
import { type ToolDefinition } from '../tool/tool.js';
import { drainStream, responseChunks } from './chunk-drain.js';
import { FinishReason } from './finish-reason.js';
import { type Message } from './message.js';
import { RawOutputCapturePolicy } from './model-config.js';
import { type ModelChunk } from './model-chunk.js';
import { ModelClosedError } from './model-errors.js';
import { createModelStream, type ModelStream } from './model-stream.js';
import {
  type ChatOptions,
  type Model,
  type ModelRequest,
  type StreamOptions,
  type StructuredChatOptions,
} from './model.js';
import { type Response } from './response.js';

interface ModelIdentity {
  readonly id: string;
  readonly provider: string;
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly rawOutputCapture?: RawOutputCapturePolicy;
  /** Releases the provider's resources; called once. */
  close?(): void | Promise<void>;
}

export interface StreamingModelSpec extends ModelIdentity {
  /** Sends the request and yields its chunks; must stop promptly when `signal` aborts. */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk>;
}

/** A model that can only answer blockingly implements this and is adapted with `adaptBlockingModel`. */
export interface BlockingModel extends ModelIdentity {
  complete(request: ModelRequest, signal: AbortSignal): Promise<Response>;
}

class SourcedModel implements Model {
  readonly id: string;
  readonly provider: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly rawOutputCapture: RawOutputCapturePolicy;
  readonly #spec: StreamingModelSpec;
  readonly #open = new Set<ModelStream>();
  #closing: Promise<void> | undefined;

  constructor(spec: StreamingModelSpec) {
    this.#spec = spec;
    this.id = spec.id;
    this.provider = spec.provider;
    this.contextWindow = spec.contextWindow ?? 0;
    this.maxOutputTokens = spec.maxOutputTokens ?? 0;
    this.rawOutputCapture = spec.rawOutputCapture ?? RawOutputCapturePolicy.ENABLED;
  }

  chatStream(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] = [],
    options: StreamOptions = {},
  ): ModelStream {
    if (this.#closing) throw new ModelClosedError(`model '${this.id}' is closed`);
    // The caller's arrays, not copies: a copy per request is O(history) work on every turn.
    const request: ModelRequest = Object.freeze({
      messages,
      tools,
      ...(options.schema ? { schema: options.schema } : {}),
    });
    const stream = createModelStream(
      (context) => this.#spec.stream(request, context.signal),
      options.signal,
      () => this.#open.delete(stream),
    );
    this.#open.add(stream);
    return stream;
  }

  chat(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: ChatOptions,
  ): Promise<Response>;
  chat<T>(
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    options: StructuredChatOptions<T>,
  ): Promise<Response<T | undefined>>;
  async chat<T>(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] = [],
    options: ChatOptions & { readonly schema?: OutputSchema<T> } = {},
  ): Promise<Response<T | undefined>> {
    const response = await drainStream(this.chatStream(messages, tools, options));
    const schema = options.schema;
    if (!schema || response.toolCalls.length > 0 || response.finishReason === FinishReason.REFUSAL) {
      return response;
    }
    return Object.freeze({ ...response, parsed: schema.parse(response.content, this.rawOutputCapture) });
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await Promise.all([...this.#open].map((stream) => stream.close()));
      await this.#spec.close?.();
    })();
    return this.#closing;
  }
}

export function createModel(spec: StreamingModelSpec): Model {
  return new SourcedModel(spec);
}

/** A Model over a blocking `complete`: called on the first pull, its answer replayed as chunks. */
export function adaptBlockingModel(model: BlockingModel): Model {
  return new SourcedModel({
    id: model.id,
    provider: model.provider,
    ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
    ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
    ...(model.rawOutputCapture === undefined ? {} : { rawOutputCapture: model.rawOutputCapture }),
    close: () => model.close?.(),
    async *stream(request, signal) {
      yield* responseChunks(await model.complete(request, signal));
    },
  });
}
