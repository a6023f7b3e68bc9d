/**
 * The AI SDK's stream parts (`LanguageModelV3StreamPart`) as ModelChunks: text and reasoning deltas,
 * tool input streamed or whole, the finish with its usage and reason. An `error` part becomes the
 * provider error callers act on: retryable when the AI SDK says so (its `isRetryable`), else a
 * rejection or a broken answer.
 */
import { FinishReason, type ModelChunk, toolCall, Usage } from '@helios/core';
import {
  type LanguageModelV3FinishReason,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { isRecord } from '../shared/error-mapping.js';
import {
  ProviderRejectedError,
  ProviderResponseError,
  ProviderTransientError,
} from '../shared/provider-errors.js';
import { parseToolArguments } from '../shared/tool-arguments.js';

const FINISH: Readonly<Record<LanguageModelV3FinishReason['unified'], FinishReason>> = {
  stop: FinishReason.STOP,
  length: FinishReason.LENGTH,
  'content-filter': FinishReason.CONTENT_FILTER,
  'tool-calls': FinishReason.TOOL_CALLS,
  error: FinishReason.ERROR,
  other: FinishReason.STOP,
};

export async function* aiSdkChunks(
  parts: ReadableStream<LanguageModelV3StreamPart>,
  provider: string,
): AsyncGenerator<ModelChunk, void, undefined> {
  const reader = parts.getReader();
  const started = new Set<string>();
  let finished = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          if (part.delta !== '') yield { type: 'TextDelta', text: part.delta };
          break;
        case 'reasoning-delta':
          if (part.delta !== '') yield { type: 'ThinkingDelta', text: part.delta };
          break;
        case 'tool-input-start':
          if (part.providerExecuted === true) break;
          started.add(part.id);
          yield { type: 'ToolUseStart', callId: part.id, toolName: part.toolName };
          break;
        case 'tool-input-delta':
          if (started.has(part.id))
            yield { type: 'ToolUseDelta', callId: part.id, argumentsDelta: part.delta };
          break;
        case 'tool-call': {
          if (part.providerExecuted === true) break;
          if (!started.has(part.toolCallId)) {
            yield { type: 'ToolUseStart', callId: part.toolCallId, toolName: part.toolName };
          }
          const args = parseToolArguments(part.input);
          yield { type: 'ToolUseStop', toolCall: toolCall(part.toolCallId, part.toolName, args) };
          break;
        }
        case 'finish':
          finished = true;
          yield {
            type: 'MessageStop',
            finishReason: FINISH[part.finishReason.unified],
            usage: usageOf(part.usage),
            metadata: {},
          };
          break;
        case 'error':
          throw errorOf(provider, part.error);
        default:
          break; // stream-start, metadata, sources, files and raw chunks carry nothing a turn keeps
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!finished) {
    throw new ProviderTransientError(
      `${provider}: stream ended before its finish part`,
      provider,
      0,
      undefined,
    );
  }
}

function usageOf(usage: LanguageModelV3Usage): Usage {
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  const input =
    usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite);
  return Usage.of(input, usage.outputTokens.total ?? 0, {
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  });
}

/** The AI SDK's APICallError carries `isRetryable`, `statusCode` and a message. */
function errorOf(provider: string, error: unknown): Error {
  const message =
    error instanceof Error
      ? error.message
      : isRecord(error) && typeof error['message'] === 'string'
        ? error['message']
        : String(error);
  const status = isRecord(error) && typeof error['statusCode'] === 'number' ? error['statusCode'] : 0;
  const retryable = isRecord(error) && error['isRetryable'] === true;
  const text = `${provider}: ${message}`;
  if (retryable) return new ProviderTransientError(text, provider, status, undefined, { cause: error });
  if (status >= 400 && status < 500)
    return new ProviderRejectedError(text, provider, status, { cause: error });
  return new ProviderResponseError(text, provider, status, { cause: error });
}
