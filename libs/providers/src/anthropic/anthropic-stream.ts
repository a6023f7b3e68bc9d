/**
 * One Messages API stream read into ModelChunks, keeping what the turn's metadata needs: the content
 * blocks as received (for verbatim replay), signed thinking, the stop reason and usage. Tool-call input
 * arrives as `input_json_delta` fragments and is parsed when its block stops.
 */
import { type ModelChunk, toolCall, Usage } from '@helios/core';
import { type ErrorSource, errorFromStreamEvent, isRecord } from '../shared/error-mapping.js';
import { ProviderTransientError } from '../shared/provider-errors.js';
import { eventJson, type ServerEvent } from '../shared/server-events.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import { citationOf } from './anthropic-citations.js';
import { type Block } from './anthropic-messages.js';

/** What one request of a turn produced, besides its chunks. */
export interface AnthropicSegment {
  readonly blocks: readonly Block[];
  readonly signedThinking: readonly { readonly text: string; readonly signature: string }[];
  readonly stopReason: string;
  readonly usage: Usage;
  readonly toolCalls: number;
  /** Blocks that signed thinking alone cannot rebuild (redacted thinking, server tools). */
  readonly needsRawContent: boolean;
}

interface OpenBlock {
  readonly block: Block;
  json: string;
}

/** Error types of the Messages API and the HTTP status each stands for. */
const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};
const CLIENT_TOOL = 'tool_use';
const REPLAY_ONLY = new Set(['redacted_thinking', 'server_tool_use']);

export class AnthropicStreamState {
  readonly #source: ErrorSource;
  readonly #blocks = new Map<number, OpenBlock>();
  #usage: Record<string, unknown> = {};
  #stopReason: string | undefined;
  #stopped = false;
  #toolCalls = 0;
  #needsRaw = false;

  constructor(source: ErrorSource) {
    this.#source = source;
  }

  /** Whether `message_stop` arrived. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** The chunk one event makes, if any (an event makes at most one: no generator per event). */
  accept(event: ServerEvent): ModelChunk | undefined {
    const data = eventJson(this.#source, event);
    if (!isRecord(data)) return undefined;
    switch (data['type']) {
      case 'message_start':
        if (isRecord(data['message']) && isRecord(data['message']['usage']))
          this.#usage = { ...data['message']['usage'] };
        return undefined;
      case 'content_block_start':
        return this.#start(Number(data['index']), data['content_block']);
      case 'content_block_delta':
        return this.#delta(Number(data['index']), data['delta']);
      case 'content_block_stop':
        return this.#stop(Number(data['index']));
      case 'message_delta':
        this.#messageDelta(data);
        return undefined;
      case 'message_stop':
        this.#stopped = true;
        return undefined;
      case 'error':
        throw this.#streamError(data['error']);
      default:
        return undefined; // ping, and event types added after this was written
    }
  }

  /** The segment; a stream cut before `message_stop` is a transport failure, worth a retry. */
  segment(): AnthropicSegment {
    const provider = this.#source.provider;
    if (!this.#stopped || this.#stopReason === undefined) {
      throw new ProviderTransientError(
        `${provider}: stream ended before message_stop`,
        provider,
        0,
        undefined,
      );
    }
    const blocks = [...this.#blocks.entries()].sort(([a], [b]) => a - b).map(([, open]) => open.block);
    const signedThinking = blocks.flatMap((block) =>
      block['type'] === 'thinking' && typeof block['signature'] === 'string' && block['signature'] !== ''
        ? [{ text: String(block['thinking']), signature: block['signature'] }]
        : [],
    );
    return {
      blocks,
      signedThinking,
      stopReason: this.#stopReason,
      usage: Usage.of(count(this.#usage['input_tokens']), count(this.#usage['output_tokens']), {
        cacheWriteTokens: count(this.#usage['cache_creation_input_tokens']),
        cacheReadTokens: count(this.#usage['cache_read_input_tokens']),
      }),
      toolCalls: this.#toolCalls,
      needsRawContent: this.#needsRaw,
    };
  }

  #start(index: number, content: unknown): ModelChunk | undefined {
    if (!isRecord(content)) return undefined;
    const block: Block = { ...content };
    if (block['type'] === 'thinking') block['signature'] ??= '';
    if (block['type'] === CLIENT_TOOL || block['type'] === 'server_tool_use') block['input'] = {};
    if (REPLAY_ONLY.has(String(block['type'])) || String(block['type']).endsWith('_tool_result'))
      this.#needsRaw = true;
    this.#blocks.set(index, { block, json: '' });
    if (block['type'] === CLIENT_TOOL) {
      return { type: 'ToolUseStart', callId: String(block['id']), toolName: String(block['name']) };
    }
    if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'] !== '') {
      return { type: 'TextDelta', text: block['text'] };
    }
    return undefined;
  }

  #delta(index: number, delta: unknown): ModelChunk | undefined {
    const open = this.#blocks.get(index);
    if (open === undefined || !isRecord(delta)) return undefined;
    const { block } = open;
    switch (delta['type']) {
      case 'text_delta':
        block['text'] = `${String(block['text'] ?? '')}${String(delta['text'])}`;
        return { type: 'TextDelta', text: String(delta['text']) };
      case 'thinking_delta':
        block['thinking'] = `${String(block['thinking'] ?? '')}${String(delta['thinking'])}`;
        return { type: 'ThinkingDelta', text: String(delta['thinking']) };
      case 'signature_delta':
        block['signature'] = `${String(block['signature'] ?? '')}${String(delta['signature'])}`;
        return undefined;
      case 'input_json_delta':
        open.json += String(delta['partial_json']);
        if (block['type'] !== CLIENT_TOOL || delta['partial_json'] === '') return undefined;
        return {
          type: 'ToolUseDelta',
          callId: String(block['id']),
          argumentsDelta: String(delta['partial_json']),
        };
      case 'citations_delta':
        if (!isRecord(delta['citation'])) return undefined;
        block['citations'] = [
          ...(Array.isArray(block['citations']) ? block['citations'] : []),
          delta['citation'],
        ];
        return { type: 'Citations', citations: [citationOf(delta['citation'])] };
      default:
        return undefined;
    }
  }

  #stop(index: number): ModelChunk | undefined {
    const open = this.#blocks.get(index);
    if (open === undefined) return undefined;
    const { block } = open;
    if (block['type'] !== CLIENT_TOOL && block['type'] !== 'server_tool_use') return undefined;
    const input = parseToolArguments(open.json);
    block['input'] = input;
    if (block['type'] !== CLIENT_TOOL) return undefined;
    this.#toolCalls += 1;
    return { type: 'ToolUseStop', toolCall: toolCall(String(block['id']), String(block['name']), input) };
  }

  #messageDelta(data: Record<string, unknown>): void {
    if (isRecord(data['delta']) && typeof data['delta']['stop_reason'] === 'string') {
      this.#stopReason = data['delta']['stop_reason'];
    }
    // message_delta usage is cumulative; later fields replace message_start's.
    if (isRecord(data['usage'])) {
      for (const [name, value] of Object.entries(data['usage']))
        if (value !== null) this.#usage[name] = value;
    }
  }

  #streamError(error: unknown): Error {
    const detail = isRecord(error) ? error : {};
    const type = typeof detail['type'] === 'string' ? detail['type'] : 'api_error';
    const message = typeof detail['message'] === 'string' ? detail['message'] : '(no message)';
    return errorFromStreamEvent(this.#source, ERROR_STATUS[type] ?? 500, { type, message });
  }
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
