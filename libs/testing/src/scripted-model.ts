/**
 * A Model that replays scripted turns instead of calling a provider: text, thinking, tool calls, finish
 * reasons, usage, thrown errors and per-chunk delays. It records every request on the first pull, as a
 * real provider would send it, so tests can assert both what was asked and that nothing was sent early.
 */
import {
  type ChatOptions,
  type Citation,
  createModel,
  delay,
  FinishReason,
  HeliosError,
  type Message,
  type Model,
  type ModelChunk,
  type ModelRequest,
  type ModelStream,
  type RawOutputCapturePolicy,
  type Response,
  responseChunks,
  type StreamOptions,
  type StructuredChatOptions,
  type ToolCall,
  type ToolDefinition,
  Usage,
} from '@helios/core';

export interface TurnOptions {
  readonly usage?: Usage;
  readonly thinking?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  readonly citations?: readonly Citation[];
  /** Wait before each chunk; the request's abort ends the wait. */
  readonly chunkDelayMs?: number;
}

export type ScriptedTurn =
  | {
      readonly type: 'Response';
      /** One string is one TextDelta; an array is one TextDelta per element. */
      readonly text: string | readonly string[];
      readonly toolCalls: readonly ToolCall[];
      readonly finishReason: FinishReason;
      readonly options: TurnOptions;
    }
  | { readonly type: 'Chunks'; readonly chunks: readonly ModelChunk[]; readonly chunkDelayMs?: number }
  | {
      readonly type: 'Error';
      readonly error: unknown;
      /** Chunks streamed before the error is thrown. */
      readonly before: readonly ModelChunk[];
      readonly chunkDelayMs?: number;
    };

/** More requests than scripted turns. */
export class ScriptExhaustedError extends HeliosError {
  readonly code = 'SCRIPT_EXHAUSTED';
}

export interface ScriptedModelOptions {
  readonly id?: string;
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly rawOutputCapture?: RawOutputCapturePolicy;
}

export class ScriptedModel implements Model {
  readonly id: string;
  readonly provider = 'testing';
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly rawOutputCapture: RawOutputCapturePolicy;
  readonly #turns: ScriptedTurn[] = [];
  readonly #requests: ModelRequest[] = [];
  readonly #inner: Model;
  #closeCount = 0;

  constructor(options: ScriptedModelOptions = {}) {
    this.id = options.id ?? 'scripted';
    this.contextWindow = options.contextWindow ?? 0;
    this.maxOutputTokens = options.maxOutputTokens ?? 0;
    this.rawOutputCapture = options.rawOutputCapture ?? 'ENABLED';
    this.#inner = createModel({
      id: this.id,
      provider: this.provider,
      contextWindow: this.contextWindow,
      maxOutputTokens: this.maxOutputTokens,
      rawOutputCapture: this.rawOutputCapture,
      stream: (request, signal) => this.#play(request, signal),
      close: () => {
        this.#closeCount += 1;
      },
    });
  }

  /** A STOP turn answering `text` (an array streams one delta per element). */
  thenText(text: string | readonly string[], options: TurnOptions = {}): this {
    return this.then({ type: 'Response', text, toolCalls: [], finishReason: FinishReason.STOP, options });
  }

  /** A REFUSAL turn. */
  thenRefusal(text: string, options: TurnOptions = {}): this {
    return this.then({ type: 'Response', text, toolCalls: [], finishReason: FinishReason.REFUSAL, options });
  }

  /** A TOOL_CALLS turn; `text` is what the model says alongside the calls. */
  thenToolCalls(calls: readonly ToolCall[], options: TurnOptions & { readonly text?: string } = {}): this {
    if (calls.length === 0) throw new RangeError('thenToolCalls needs at least one call');
    return this.then({
      type: 'Response',
      text: options.text ?? '',
      toolCalls: calls,
      finishReason: FinishReason.TOOL_CALLS,
      options,
    });
  }

  /** A turn ending with any finish reason (e.g. LENGTH, CONTENT_FILTER, ERROR). */
  thenFinish(finishReason: FinishReason, text = '', options: TurnOptions = {}): this {
    return this.then({ type: 'Response', text, toolCalls: [], finishReason, options });
  }

  /** A turn that fails: `before` chunks stream, then the iteration throws `error`. */
  thenError(
    error: unknown,
    options: { readonly before?: readonly ModelChunk[]; readonly chunkDelayMs?: number } = {},
  ): this {
    return this.then({
      type: 'Error',
      error,
      before: options.before ?? [],
      ...chunkDelay(options.chunkDelayMs),
    });
  }

  /** A turn streaming exactly these chunks. */
  thenChunks(chunks: readonly ModelChunk[], options: { readonly chunkDelayMs?: number } = {}): this {
    return this.then({ type: 'Chunks', chunks, ...chunkDelay(options.chunkDelayMs) });
  }

  then(turn: ScriptedTurn): this {
    this.#turns.push(turn);
    return this;
  }

  /** Every request received, in order. */
  get requests(): readonly ModelRequest[] {
    return this.#requests;
  }

  /** The messages of every request, as `calls()` in the original kit. */
  get calls(): readonly (readonly Message[])[] {
    return this.#requests.map((request) => request.messages);
  }

  get remainingTurns(): number {
    return this.#turns.length;
  }

  /** How many times the owner closed it (sessions must leave it at 0). */
  get closeCount(): number {
    return this.#closeCount;
  }

  chatStream(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: StreamOptions,
  ): ModelStream {
    return this.#inner.chatStream(messages, tools, options);
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
  chat<T>(
    messages: readonly Message[],
    tools: readonly ToolDefinition[] = [],
    options: ChatOptions | StructuredChatOptions<T> = {},
  ): Promise<Response<T | undefined>> {
    return 'schema' in options
      ? this.#inner.chat(messages, tools, options)
      : this.#inner.chat(messages, tools, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async *#play(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
    // A recorder keeps what it saw: models get the caller's live arrays (ModelRequest), so snapshot them.
    this.#requests.push(
      Object.freeze({
        ...request,
        messages: Object.freeze([...request.messages]),
        tools: Object.freeze([...request.tools]),
      }),
    );
    const turn = this.#turns.shift();
    if (!turn) {
      throw new ScriptExhaustedError(
        `ScriptedModel '${this.id}' has no turn left for request ${this.#requests.length}`,
      );
    }
    switch (turn.type) {
      case 'Response':
        yield* paced(responseChunks(toResponse(turn)), {
          delayMs: turn.options.chunkDelayMs,
          signal,
          text: turn.text,
        });
        return;
      case 'Chunks':
        yield* paced(turn.chunks, { delayMs: turn.chunkDelayMs, signal });
        return;
      case 'Error':
        yield* paced(turn.before, { delayMs: turn.chunkDelayMs, signal });
        throw turn.error;
      default: {
        const unknown: never = turn;
        throw new TypeError(`unknown scripted turn ${JSON.stringify(unknown)}`);
      }
    }
  }
}

function chunkDelay(ms: number | undefined): { chunkDelayMs?: number } {
  return ms === undefined ? {} : { chunkDelayMs: ms };
}

function toResponse(turn: Extract<ScriptedTurn, { type: 'Response' }>): Response {
  const { options } = turn;
  return {
    content: typeof turn.text === 'string' ? turn.text : turn.text.join(''),
    parsed: undefined,
    toolCalls: turn.toolCalls,
    finishReason: turn.finishReason,
    usage: options.usage ?? Usage.ZERO,
    ...(options.thinking === undefined ? {} : { thinking: options.thinking }),
    citations: options.citations ?? [],
    metadata: options.metadata ?? {},
  };
}

/** How `paced` spaces the chunks, and a text array to split the TextDelta into (one delta per part). */
interface Pacing {
  readonly delayMs: number | undefined;
  readonly signal: AbortSignal;
  readonly text?: string | readonly string[];
}

/** Yields chunks with an abortable delay before each; a text array is split into one delta per part. */
async function* paced(chunks: readonly ModelChunk[], pacing: Pacing): AsyncGenerator<ModelChunk> {
  const { delayMs, signal, text } = pacing;
  for (const chunk of chunks) {
    const parts =
      chunk.type === 'TextDelta' && Array.isArray(text) ? (text as readonly string[]) : [undefined];
    for (const part of parts) {
      if (delayMs !== undefined && delayMs > 0) await delay(delayMs, signal);
      yield part === undefined ? chunk : { type: 'TextDelta', text: part };
    }
  }
}
