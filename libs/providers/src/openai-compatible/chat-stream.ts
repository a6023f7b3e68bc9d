/**
 * Chat Completions' streamed chunks as ModelChunks. Tool calls arrive by `index`, their id and name in
 * the first delta and their arguments split across later ones; usage (when the server reports it)
 * arrives in a last chunk with no choices, so the turn ends at `[DONE]` or the end of the body.
 */
import { FinishReason, type ModelChunk, toolCall, Usage } from '@helios/core';
import { type ErrorSource, errorFromStreamEvent, errorDetail, isRecord } from '../shared/error-mapping.js';
import { ProviderTransientError } from '../shared/provider-errors.js';
import { eventJson, type ServerEventBatch } from '../shared/server-events.js';
import { parseToolArguments } from '../shared/tool-arguments.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
}

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: FinishReason.STOP,
  length: FinishReason.LENGTH,
  tool_calls: FinishReason.TOOL_CALLS,
  function_call: FinishReason.TOOL_CALLS,
  content_filter: FinishReason.CONTENT_FILTER,
};

export async function* chatChunks(
  events: AsyncIterable<ServerEventBatch>,
  source: ErrorSource,
): AsyncGenerator<ModelChunk, void, undefined> {
  const state = new ChatStreamState(source);
  // One array of chunks per event, reused: a generator per event cost more than decoding the event.
  const out: ModelChunk[] = [];
  read: for await (const batch of events) {
    for (const event of batch) {
      if (event.data.trim() === '[DONE]') break read;
      out.length = 0;
      state.accept(eventJson(source, event), out);
      for (const chunk of out) yield chunk;
    }
  }
  out.length = 0;
  state.finish(out);
  yield* out;
}

class ChatStreamState {
  readonly #source: ErrorSource;
  readonly #calls = new Map<number, PendingCall>();
  #finishReason: string | undefined;
  #usage: Usage = Usage.ZERO;
  #completedCalls = 0;

  constructor(source: ErrorSource) {
    this.#source = source;
  }

  accept(chunk: unknown, out: ModelChunk[]): void {
    if (!isRecord(chunk)) return;
    if (chunk['error'] !== undefined) throw this.#streamError(chunk);
    if (isRecord(chunk['usage'])) this.#usage = usageOf(chunk['usage']);
    const choices = Array.isArray(chunk['choices']) ? (chunk['choices'] as unknown[]) : [];
    for (const choice of choices) {
      if (!isRecord(choice)) continue;
      const delta = isRecord(choice['delta']) ? choice['delta'] : {};
      const thinking = delta['reasoning_content'] ?? delta['reasoning'];
      if (typeof thinking === 'string' && thinking !== '')
        out.push({ type: 'ThinkingDelta', text: thinking });
      if (typeof delta['content'] === 'string' && delta['content'] !== '') {
        out.push({ type: 'TextDelta', text: delta['content'] });
      }
      if (Array.isArray(delta['tool_calls'])) {
        for (const call of delta['tool_calls'] as unknown[]) this.#toolCallDelta(call, out);
      }
      if (typeof choice['finish_reason'] === 'string') {
        this.#finishReason = choice['finish_reason'];
        this.#completeCalls(out);
      }
    }
  }

  /** The closing chunks; a stream cut before any finish_reason is a transport failure. */
  finish(out: ModelChunk[]): void {
    if (this.#finishReason === undefined) {
      const provider = this.#source.provider;
      throw new ProviderTransientError(
        `${provider}: stream ended before a finish_reason`,
        provider,
        0,
        undefined,
      );
    }
    this.#completeCalls(out);
    const mapped = FINISH_REASONS[this.#finishReason] ?? FinishReason.STOP;
    const finishReason =
      this.#completedCalls > 0 && mapped === FinishReason.STOP ? FinishReason.TOOL_CALLS : mapped;
    out.push({
      type: 'MessageStop',
      finishReason,
      usage: this.#usage,
      metadata: { 'openaiCompatible.finishReason': this.#finishReason },
    });
  }

  #toolCallDelta(delta: unknown, out: ModelChunk[]): void {
    if (!isRecord(delta)) return;
    const index = typeof delta['index'] === 'number' ? delta['index'] : this.#calls.size;
    const fn = isRecord(delta['function']) ? delta['function'] : {};
    let call = this.#calls.get(index);
    if (call === undefined) {
      call = { id: '', name: '', arguments: '', started: false };
      this.#calls.set(index, call);
    }
    if (typeof delta['id'] === 'string' && delta['id'] !== '') call.id = delta['id'];
    if (typeof fn['name'] === 'string' && fn['name'] !== '') call.name = fn['name'];
    if (!call.started && call.name !== '') {
      if (call.id === '') call.id = `call_${index}`; // some local servers send no id
      call.started = true;
      out.push({ type: 'ToolUseStart', callId: call.id, toolName: call.name });
    }
    if (typeof fn['arguments'] === 'string' && fn['arguments'] !== '') {
      call.arguments += fn['arguments'];
      if (call.started) out.push({ type: 'ToolUseDelta', callId: call.id, argumentsDelta: fn['arguments'] });
    }
  }

  /** Every call received so far, arguments parsed, in index order; each is emitted once. */
  #completeCalls(out: ModelChunk[]): void {
    const indexes = [...this.#calls.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const call = this.#calls.get(index) as PendingCall;
      this.#calls.delete(index);
      if (call.name === '') continue; // a nameless fragment cannot be called
      this.#completedCalls += 1;
      out.push({
        type: 'ToolUseStop',
        toolCall: toolCall(call.id, call.name, parseToolArguments(call.arguments)),
      });
    }
  }

  #streamError(chunk: Record<string, unknown>): Error {
    const detail = errorDetail(JSON.stringify(chunk));
    const error = isRecord(chunk['error']) ? chunk['error'] : {};
    const code = Number(error['code']);
    const status = Number.isInteger(code) && code >= 400 && code < 600 ? code : 500;
    return errorFromStreamEvent(this.#source, status, detail);
  }
}

/** Disjoint classes: cached prompt tokens are cache reads, the rest of the prompt is input. */
function usageOf(usage: Record<string, unknown>): Usage {
  const prompt = count(usage['prompt_tokens']);
  const details = isRecord(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const cached = Math.min(prompt, count(details['cached_tokens']));
  return Usage.of(prompt - cached, count(usage['completion_tokens']), { cacheReadTokens: cached });
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
