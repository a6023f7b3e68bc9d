/** Folds a turn's chunks into one Response: what `chat` does over `chatStream`. */
import { assertNever } from '../common/validate.js';
import { type Citation } from './citation.js';
import { type MessageStop, type ModelChunk } from './model-chunk.js';
import { IncompleteStreamError } from './model-errors.js';
import { type Response } from './response.js';
import { type ToolCall } from './tool-call.js';

export async function drainStream(chunks: AsyncIterable<ModelChunk>): Promise<Response> {
  let content = '';
  let thinking: string | undefined;
  const toolCalls: ToolCall[] = [];
  const citations: Citation[] = [];
  let stop: MessageStop | undefined;
  for await (const chunk of chunks) {
    switch (chunk.type) {
      case 'TextDelta':
        content += chunk.text;
        break;
      case 'ThinkingDelta':
        thinking = (thinking ?? '') + chunk.text;
        break;
      case 'ToolUseStop':
        toolCalls.push(chunk.toolCall);
        break;
      case 'Citations':
        citations.push(...chunk.citations);
        break;
      case 'MessageStop':
        stop = chunk;
        break;
      case 'ToolUseStart':
      case 'ToolUseDelta':
      case 'UsageDelta':
        break; // progress only; the parsed call and final usage arrive later
      default:
        assertNever(chunk, 'model chunk');
    }
    if (stop) break; // MessageStop is terminal; leaving the loop closes the stream
  }
  if (!stop) throw new IncompleteStreamError('model stream ended without a MessageStop chunk');
  return Object.freeze({
    content,
    parsed: undefined,
    toolCalls: Object.freeze(toolCalls),
    finishReason: stop.finishReason,
    usage: stop.usage,
    ...(thinking === undefined ? {} : { thinking }),
    citations: Object.freeze(citations),
    metadata: stop.metadata,
  });
}

/** The chunks a complete response is equivalent to, for models that answer in one piece. */
export function responseChunks(response: Response<unknown>): ModelChunk[] {
  const chunks: ModelChunk[] = [];
  if (response.thinking !== undefined && response.thinking !== '') {
    chunks.push({ type: 'ThinkingDelta', text: response.thinking });
  }
  if (response.content !== '') chunks.push({ type: 'TextDelta', text: response.content });
  for (const call of response.toolCalls) {
    chunks.push({ type: 'ToolUseStart', callId: call.id, toolName: call.name });
    chunks.push({ type: 'ToolUseStop', toolCall: call });
  }
  if (response.citations.length > 0) chunks.push({ type: 'Citations', citations: response.citations });
  chunks.push({
    type: 'MessageStop',
    finishReason: response.finishReason,
    usage: response.usage,
    metadata: response.metadata,
  });
  return chunks;
}
