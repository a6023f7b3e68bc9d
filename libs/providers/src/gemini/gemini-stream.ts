/**
 * Interactions API stream events as ModelChunks. The answer arrives as steps: `step.start` opens one
 * (a `thought`, a `model_output`, a `function_call` with its id and name), `step.delta`s fill it
 * (text, thought summaries, thought signatures, function-call argument fragments) and `step.stop`
 * closes it; `interaction.completed` carries the status and usage and ends the turn.
 */
import { type Citation, FinishReason, type ModelChunk, toolCall, Usage } from '@helios/core';
import { type ErrorSource, errorFromStreamEvent, isRecord } from '../shared/error-mapping.js';
import { eventJson, type ServerEvent } from '../shared/server-events.js';
import { parseToolArguments } from '../shared/tool-arguments.js';

type Json = Record<string, unknown>;

interface OpenStep {
  readonly type: string;
  readonly callId?: string;
  readonly name?: string;
  /** Arguments given whole in `step.start` (used when no fragments follow). */
  readonly initialArguments?: unknown;
  argumentsText: string;
}

/** What one streamed interaction produced besides its chunks. */
export interface GeminiSegment {
  readonly interactionId: string | undefined;
  readonly status: string;
  readonly usage: Usage;
  readonly signatures: readonly string[];
  readonly toolCalls: number;
}

/** Statuses implied by the string codes the API puts in stream errors. */
const CODE_STATUS: Readonly<Record<string, number>> = {
  resource_exhausted: 429,
  internal: 500,
  unavailable: 503,
  gateway_timeout: 504,
  deadline_exceeded: 504,
};

export class GeminiStreamState {
  readonly #source: ErrorSource;
  readonly #steps = new Map<number, OpenStep>();
  readonly #signatures: string[] = [];
  #interactionId: string | undefined;
  #toolCalls = 0;
  segment: GeminiSegment | undefined;

  constructor(source: ErrorSource) {
    this.#source = source;
  }

  /** Appends the chunks one event makes to `out`; sets `segment` when the interaction completed. */
  accept(event: ServerEvent, out: ModelChunk[]): void {
    const data = eventJson(this.#source, event);
    if (!isRecord(data)) return;
    const index = typeof data['index'] === 'number' ? data['index'] : 0;
    switch (data['event_type'] ?? event.event) {
      case 'interaction.created':
      case 'interaction.status_update':
        this.#noteId(isRecord(data['interaction']) ? data['interaction']['id'] : data['interaction_id']);
        return;
      case 'step.start':
        this.#start(index, isRecord(data['step']) ? data['step'] : {}, out);
        return;
      case 'step.delta':
        this.#delta(index, isRecord(data['delta']) ? data['delta'] : {}, out);
        return;
      case 'step.stop':
        this.#stop(index, out);
        return;
      case 'interaction.completed':
        this.#complete(isRecord(data['interaction']) ? data['interaction'] : {});
        return;
      case 'error':
        throw this.#failure(isRecord(data['error']) ? data['error'] : data);
      default:
        return; // progress events carry nothing a turn needs
    }
  }

  #start(index: number, step: Json, out: ModelChunk[]): void {
    const type = typeof step['type'] === 'string' ? step['type'] : 'unknown';
    if (type === 'function_call') {
      const callId = typeof step['id'] === 'string' ? step['id'] : `call_${index}`;
      const name = typeof step['name'] === 'string' ? step['name'] : '';
      this.#steps.set(index, { type, callId, name, initialArguments: step['arguments'], argumentsText: '' });
      out.push({ type: 'ToolUseStart', callId, toolName: name });
      return;
    }
    this.#steps.set(index, { type, argumentsText: '' });
    if (type === 'thought') {
      if (typeof step['signature'] === 'string') this.#signatures.push(step['signature']);
      for (const text of texts(step['summary'])) this.#thinkingText(text, out);
    } else if (type === 'model_output') {
      for (const text of texts(step['content'])) if (text !== '') out.push({ type: 'TextDelta', text });
    }
  }

  #delta(index: number, delta: Json, out: ModelChunk[]): void {
    const step = this.#steps.get(index);
    switch (delta['type']) {
      case 'text':
        if (typeof delta['text'] !== 'string' || delta['text'] === '') return;
        if (step?.type === 'thought') this.#thinkingText(delta['text'], out);
        else out.push({ type: 'TextDelta', text: delta['text'] });
        return;
      case 'thought_summary':
        for (const text of texts([delta['content']])) this.#thinkingText(text, out);
        return;
      case 'thought_signature':
        if (typeof delta['signature'] === 'string') this.#signatures.push(delta['signature']);
        return;
      case 'arguments_delta':
        if (step?.callId === undefined || typeof delta['arguments'] !== 'string') return;
        step.argumentsText += delta['arguments'];
        out.push({ type: 'ToolUseDelta', callId: step.callId, argumentsDelta: delta['arguments'] });
        return;
      case 'annotations':
        out.push(...citations(delta['annotations']));
        return;
      default:
        return;
    }
  }

  #thinkingText(text: string, out: ModelChunk[]): void {
    if (text === '') return;
    out.push({ type: 'ThinkingDelta', text });
  }

  #stop(index: number, out: ModelChunk[]): void {
    const step = this.#steps.get(index);
    this.#steps.delete(index);
    if (step?.callId === undefined) return;
    const args =
      step.argumentsText === '' && isRecord(step.initialArguments)
        ? step.initialArguments
        : parseToolArguments(step.argumentsText);
    this.#toolCalls += 1;
    out.push({ type: 'ToolUseStop', toolCall: toolCall(step.callId, step.name ?? '', args) });
  }

  #complete(interaction: Json): void {
    this.#noteId(interaction['id']);
    this.segment = {
      interactionId: this.#interactionId,
      status: typeof interaction['status'] === 'string' ? interaction['status'] : 'completed',
      usage: isRecord(interaction['usage']) ? usageOf(interaction['usage']) : Usage.ZERO,
      signatures: [...this.#signatures],
      toolCalls: this.#toolCalls,
    };
  }

  #noteId(id: unknown): void {
    if (typeof id === 'string' && id !== '') this.#interactionId = id;
  }

  #failure(error: Json): Error {
    const code = error['code'];
    const message = typeof error['message'] === 'string' ? error['message'] : 'interaction failed';
    const status =
      typeof code === 'number' ? code : ((typeof code === 'string' ? CODE_STATUS[code] : undefined) ?? 400);
    const type =
      typeof code === 'string' ? code : typeof error['status'] === 'string' ? error['status'] : undefined;
    return errorFromStreamEvent(this.#source, status, type === undefined ? { message } : { type, message });
  }
}

export function finishReasonOf(segment: GeminiSegment): FinishReason {
  switch (segment.status) {
    case 'failed':
    case 'budget_exceeded':
    case 'cancelled':
      return FinishReason.ERROR;
    case 'incomplete':
      return FinishReason.LENGTH;
    default:
      return segment.toolCalls > 0 ? FinishReason.TOOL_CALLS : FinishReason.STOP;
  }
}

/** Disjoint classes: cached tokens out of input; thought tokens billed as output. */
function usageOf(usage: Json): Usage {
  const input = count(usage['total_input_tokens']) + count(usage['total_tool_use_tokens']);
  const cached = Math.min(input, count(usage['total_cached_tokens']));
  const output = count(usage['total_output_tokens']) + count(usage['total_thought_tokens']);
  return Usage.of(input - cached, output, { cacheReadTokens: cached });
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The text of content items (`{type: 'text', text}`), skipping everything else. */
function texts(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) =>
    isRecord(item) && item['type'] === 'text' && typeof item['text'] === 'string' ? [item['text']] : [],
  );
}

function* citations(annotations: unknown): Generator<ModelChunk> {
  if (!Array.isArray(annotations)) return;
  const found: Citation[] = annotations.flatMap((annotation) => {
    if (!isRecord(annotation) || annotation['type'] !== 'url_citation') return [];
    const url = typeof annotation['url'] === 'string' ? annotation['url'] : undefined;
    const citation: Citation = {
      ...(url === undefined ? {} : { sourceId: url, url }),
      ...(typeof annotation['title'] === 'string' ? { title: annotation['title'] } : {}),
      ...(typeof annotation['start_index'] === 'number' ? { startIndex: annotation['start_index'] } : {}),
      ...(typeof annotation['end_index'] === 'number' ? { endIndex: annotation['end_index'] } : {}),
      metadata: {},
    };
    return [citation];
  });
  if (found.length > 0) yield { type: 'Citations', citations: found };
}
