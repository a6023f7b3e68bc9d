/**
 * The provider-agnostic model. A Model owns long-lived resources (its HTTP pool): whoever creates it
 * closes it, once, at shutdown; sessions share it and never close it.
 */
import { type OutputSchema } from '../schema/output-schema.js';
import { type ToolDefinition } from '../tool/tool.js';
import { type Message } from './message.js';
import { type RawOutputCapturePolicy } from './model-config.js';
import { type ModelStream } from './model-stream.js';
import { type Response } from './response.js';

export interface ChatOptions {
  /** Aborts the request from any point; the model stays open. */
  readonly signal?: AbortSignal;
}

export interface StreamOptions extends ChatOptions {
  /** Ask the provider for JSON matching this schema. */
  readonly schema?: OutputSchema<unknown>;
}

export interface StructuredChatOptions<T> extends ChatOptions {
  readonly schema: OutputSchema<T>;
}

/**
 * Everything a provider sends for one turn. `messages` and `tools` are the caller's own arrays, readonly
 * by contract and never copied (a copy per turn would be O(history)): the caller leaves them unchanged
 * until the stream ends, and a provider that keeps a request beyond that copies what it keeps.
 */
export interface ModelRequest {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  readonly schema?: OutputSchema<unknown>;
}

export interface Model {
  readonly id: string;
  /** Provider name, e.g. `anthropic`. */
  readonly provider: string;
  /** Tokens the model accepts, or 0 when unknown. */
  readonly contextWindow: number;
  /** Most tokens one answer may have, or 0 when unknown. */
  readonly maxOutputTokens: number;
  readonly rawOutputCapture: RawOutputCapturePolicy;

  /**
   * One turn as chunks. Nothing is sent before the first pull. `messages` and `tools` are read, not
   * copied: leave them unchanged until the stream ends (see ModelRequest).
   */
  chatStream(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: StreamOptions,
  ): ModelStream;

  /** One turn, drained from `chatStream`. */
  chat(
    messages: readonly Message[],
    tools?: readonly ToolDefinition[],
    options?: ChatOptions,
  ): Promise<Response>;
  /**
   * One structured turn: `parsed` holds the schema's value, or undefined when the turn called tools or
   * was refused. An answer that does not match throws StructuredOutputParseError.
   */
  chat<T>(
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    options: StructuredChatOptions<T>,
  ): Promise<Response<T | undefined>>;

  /** Releases the model's resources and aborts its open streams. Idempotent. */
  close(): Promise<void>;
}
