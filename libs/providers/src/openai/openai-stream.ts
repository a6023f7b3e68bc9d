/**
 * Responses API stream events as ModelChunks. Function calls open with `response.output_item.added`
 * (item id, call id, name), their arguments arrive as deltas keyed by item id and close with
 * `response.function_call_arguments.done`; the turn ends with `response.completed`, `.incomplete` or
 * `.failed` (there is no `[DONE]`), which carries the status and usage.
 */
import { FinishReason, type MessageStop, type ModelChunk, toolCall, Usage } from '@helios/core';
import { type ErrorSource, errorFromStreamEvent, isRecord } from '../shared/error-mapping.js';
import { ProviderTransientError } from '../shared/provider-errors.js';
import { eventJson, type ServerEventBatch } from '../shared/server-events.js';
import { parseToolArguments } from '../shared/tool-arguments.js';

/** Assistant-message metadata keys this provider writes; part of stored conversations, never rename. */
export const OPENAI_METADATA = {
  /** The reasoning summary text, when the model returned one. */
  reasoning: 'openai.reasoning',
  responseId: 'openai.responseId',
  status: 'openai.status',
  incompleteReason: 'openai.incompleteReason',
} as const;

interface PendingCall {
  readonly callId: string;
  readonly name: string;
  arguments: string;
}

type Json = Record<string, unknown>;

/** HTTP statuses implied by the error codes the API puts in stream errors. */
const CODE_STATUS: Readonly<Record<string, number>> = {
  rate_limit_exceeded: 429,
  server_error: 500,
  internal_error: 500,
  server_is_overloaded: 503,
  slow_down: 503,
};

export async function* openAiChunks(
  events: AsyncIterable<ServerEventBatch>,
  source: ErrorSource,
): AsyncGenerator<ModelChunk, void, undefined> {
  const state = new OpenAiStreamState(source);
  // One array of chunks per event, reused: a generator per event cost more than decoding the event.
  const out: ModelChunk[] = [];
  read: for await (const batch of events) {
    for (const event of batch) {
      out.length = 0;
      state.accept(eventJson(source, event), out);
      for (const chunk of out) yield chunk;
      if (state.stop !== undefined) break read;
    }
  }
  if (state.stop === undefined) {
    throw new ProviderTransientError(
      `${source.provider}: stream ended before response.completed`,
      source.provider,
      0,
      undefined,
    );
  }
  yield state.stop;
}

class OpenAiStreamState {
  readonly #source: ErrorSource;
  readonly #calls = new Map<string, PendingCall>();
  #completedCalls = 0;
  #refused = false;
  #responseId: string | undefined;
  readonly #summary: string[] = [];
  #summaryKey: string | undefined;
  stop: MessageStop | undefined;

  constructor(source: ErrorSource) {
    this.#source = source;
  }

  accept(event: unknown, out: ModelChunk[]): void {
    if (!isRecord(event)) return;
    switch (event['type']) {
      case 'response.created':
        if (isRecord(event['response']) && typeof event['response']['id'] === 'string') {
          this.#responseId = event['response']['id'];
        }
        return;
      case 'response.output_text.delta':
        if (typeof event['delta'] === 'string' && event['delta'] !== '') {
          out.push({ type: 'TextDelta', text: event['delta'] });
        }
        return;
      case 'response.refusal.delta':
        this.#refused = true;
        if (typeof event['delta'] === 'string' && event['delta'] !== '') {
          out.push({ type: 'TextDelta', text: event['delta'] });
        }
        return;
      case 'response.reasoning_summary_text.delta':
        this.#summaryDelta(event, out);
        return;
      case 'response.output_item.added':
        this.#itemAdded(event['item'], out);
        return;
      case 'response.function_call_arguments.delta':
        this.#argumentsDelta(event, out);
        return;
      case 'response.function_call_arguments.done':
        this.#completeCall(String(event['item_id']), event['arguments'], out);
        return;
      case 'response.output_item.done':
        if (isRecord(event['item']) && event['item']['type'] === 'function_call') {
          this.#completeCall(String(event['item']['id']), event['item']['arguments'], out);
        }
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.stop = this.#turnStop(isRecord(event['response']) ? event['response'] : {});
        return;
      case 'response.failed':
        throw this.#failure(isRecord(event['response']) ? event['response']['error'] : undefined);
      case 'error':
        throw this.#failure(event);
      default:
        return; // progress events (in_progress, content_part.*, *.done) carry nothing new
    }
  }

  #summaryDelta(event: Json, out: ModelChunk[]): void {
    const delta = event['delta'];
    if (typeof delta !== 'string' || delta === '') return;
    const key = `${String(event['item_id'])}/${String(event['summary_index'])}`;
    if (key !== this.#summaryKey) {
      this.#summaryKey = key;
      if (this.#summary.length > 0) {
        this.#summary.push('\n\n');
        out.push({ type: 'ThinkingDelta', text: '\n\n' });
      }
    }
    this.#summary.push(delta);
    out.push({ type: 'ThinkingDelta', text: delta });
  }

  #itemAdded(item: unknown, out: ModelChunk[]): void {
    if (!isRecord(item) || item['type'] !== 'function_call') return;
    const itemId = String(item['id']);
    const callId = typeof item['call_id'] === 'string' && item['call_id'] !== '' ? item['call_id'] : itemId;
    const name = typeof item['name'] === 'string' ? item['name'] : '';
    const initial = typeof item['arguments'] === 'string' ? item['arguments'] : '';
    this.#calls.set(itemId, { callId, name, arguments: initial });
    out.push({ type: 'ToolUseStart', callId, toolName: name });
  }

  #argumentsDelta(event: Json, out: ModelChunk[]): void {
    const call = this.#calls.get(String(event['item_id']));
    const delta = event['delta'];
    if (call === undefined || typeof delta !== 'string' || delta === '') return;
    call.arguments += delta;
    out.push({ type: 'ToolUseDelta', callId: call.callId, argumentsDelta: delta });
  }

  /** Each call completes once: at `arguments.done`, or at `output_item.done` when that came alone. */
  #completeCall(itemId: string, finalArguments: unknown, out: ModelChunk[]): void {
    const call = this.#calls.get(itemId);
    if (call === undefined) return;
    this.#calls.delete(itemId);
    const text = typeof finalArguments === 'string' ? finalArguments : call.arguments;
    this.#completedCalls += 1;
    out.push({ type: 'ToolUseStop', toolCall: toolCall(call.callId, call.name, parseToolArguments(text)) });
  }

  #turnStop(response: Json): MessageStop {
    const status = typeof response['status'] === 'string' ? response['status'] : 'completed';
    const details = isRecord(response['incomplete_details']) ? response['incomplete_details'] : {};
    const reason = typeof details['reason'] === 'string' ? details['reason'] : undefined;
    const metadata: Record<string, string> = { [OPENAI_METADATA.status]: status };
    const responseId = typeof response['id'] === 'string' ? response['id'] : this.#responseId;
    if (responseId !== undefined) metadata[OPENAI_METADATA.responseId] = responseId;
    if (reason !== undefined) metadata[OPENAI_METADATA.incompleteReason] = reason;
    if (this.#summary.length > 0) metadata[OPENAI_METADATA.reasoning] = this.#summary.join('');
    return {
      type: 'MessageStop',
      finishReason: this.#finishReason(status, reason),
      usage: isRecord(response['usage']) ? usageOf(response['usage']) : Usage.ZERO,
      metadata,
    };
  }

  #finishReason(status: string, reason: string | undefined): FinishReason {
    if (status === 'incomplete') {
      return reason === 'content_filter' ? FinishReason.CONTENT_FILTER : FinishReason.LENGTH;
    }
    if (this.#refused) return FinishReason.REFUSAL;
    return this.#completedCalls > 0 ? FinishReason.TOOL_CALLS : FinishReason.STOP;
  }

  #failure(error: unknown): Error {
    const detail = isRecord(error) ? error : {};
    const code = typeof detail['code'] === 'string' ? detail['code'] : undefined;
    const message = typeof detail['message'] === 'string' ? detail['message'] : 'response failed';
    const status = (code === undefined ? undefined : CODE_STATUS[code]) ?? 400;
    return errorFromStreamEvent(
      this.#source,
      status,
      code === undefined ? { message } : { type: code, message },
    );
  }
}

/** Disjoint classes: cached and cache-written prompt tokens are taken out of input. */
function usageOf(usage: Json): Usage {
  const input = count(usage['input_tokens']);
  const details = isRecord(usage['input_tokens_details']) ? usage['input_tokens_details'] : {};
  const cacheRead = Math.min(input, count(details['cached_tokens']));
  const cacheWrite = Math.min(input - cacheRead, count(details['cache_write_tokens']));
  return Usage.of(input - cacheRead - cacheWrite, count(usage['output_tokens']), {
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  });
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
