/**
 * One model turn against the Messages API. A `pause_turn` stop (a long server-side tool run) is not the
 * end: the paused content is sent back as the last assistant message and the turn continues, up to
 * MAX_PAUSE_CONTINUATIONS times. The caller sees one turn: chunks of every segment, then one
 * MessageStop with the usage summed and metadata that replays the whole turn.
 */
import { FinishReason, type MessageStop, type ModelChunk, type ModelRequest, Usage } from '@helios/core';
import { ProviderResponseError } from '../shared/provider-errors.js';
import { type HttpSettings, postForEvents } from '../shared/provider-http.js';
import { type Block } from './anthropic-messages.js';
import { METADATA } from './anthropic-metadata.js';
import { type AnthropicRequestOptions } from './anthropic-options.js';
import { isThinkingBlock, promptFingerprint } from './anthropic-prompt-binding.js';
import { buildAnthropicBody, systemPrompt } from './anthropic-request.js';
import { type AnthropicSegment, AnthropicStreamState } from './anthropic-stream.js';
import { type CachePolicy } from './cache-policy.js';

export const MAX_PAUSE_CONTINUATIONS = 8;

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: FinishReason.STOP,
  stop_sequence: FinishReason.STOP,
  tool_use: FinishReason.TOOL_CALLS,
  max_tokens: FinishReason.LENGTH,
  model_context_window_exceeded: FinishReason.LENGTH,
  refusal: FinishReason.REFUSAL,
};

export interface AnthropicEndpoint {
  readonly modelId: string;
  readonly url: string;
  readonly headers: () => Record<string, string>;
  readonly http: HttpSettings;
  readonly options: AnthropicRequestOptions;
  readonly cachePolicy: CachePolicy;
  /** From the catalogue; false for an uncatalogued id. */
  readonly bindsThinkingToPrompt: boolean;
}

export async function* anthropicTurn(
  endpoint: AnthropicEndpoint,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelChunk, void, undefined> {
  const segments: AnthropicSegment[] = [];
  let continuation: Block[] = [];
  const fingerprint = promptFingerprint(systemPrompt(request), request.tools);
  for (;;) {
    const body = buildAnthropicBody({ ...endpoint, request, continuation, fingerprint });
    const state = new AnthropicStreamState(endpoint.http);
    const events = postForEvents(endpoint.http, {
      url: endpoint.url,
      headers: endpoint.headers(),
      body,
      signal,
    });
    read: for await (const batch of events) {
      for (const event of batch) {
        const chunk = state.accept(event);
        if (chunk !== undefined) yield chunk;
        if (state.stopped) break read;
      }
    }
    const segment = state.segment();
    segments.push(segment);
    if (segment.stopReason !== 'pause_turn') break;
    if (segments.length > MAX_PAUSE_CONTINUATIONS) {
      const provider = endpoint.http.provider;
      throw new ProviderResponseError(
        `${provider}: turn still paused after ${MAX_PAUSE_CONTINUATIONS} continuations`,
        provider,
        200,
      );
    }
    continuation = [...continuation, ...segment.blocks];
  }
  yield turnStop(segments, fingerprint);
}

function turnStop(segments: readonly AnthropicSegment[], fingerprint: string): MessageStop {
  const last = segments[segments.length - 1] as AnthropicSegment;
  const usage = segments.reduce((sum, segment) => Usage.plus(sum, segment.usage), Usage.ZERO);
  const toolCalls = segments.reduce((sum, segment) => sum + segment.toolCalls, 0);
  const mapped = STOP_REASONS[last.stopReason] ?? FinishReason.STOP;
  const finishReason = toolCalls > 0 && mapped === FinishReason.STOP ? FinishReason.TOOL_CALLS : mapped;
  const metadata: Record<string, string> = { [METADATA.stopReason]: last.stopReason };
  const signed = segments.flatMap((segment) => segment.signedThinking);
  if (signed.length > 0) {
    metadata[METADATA.thinking] = signed.map((block) => block.text).join('\n\n');
    metadata[METADATA.thinkingBlocks] = JSON.stringify(signed);
    if (signed.length === 1)
      metadata[METADATA.thinkingSignature] = (signed[0] as { signature: string }).signature;
  }
  if (segments.length > 1 || segments.some((segment) => segment.needsRawContent)) {
    metadata[METADATA.rawContent] = JSON.stringify(segments.flatMap((segment) => segment.blocks));
  }
  // Written on every model (cheap, and the history may move to a model that binds thinking), but only
  // when there is thinking to bind: a turn without it replays the same under any prompt.
  if (segments.some((segment) => segment.blocks.some(isThinkingBlock))) {
    metadata[METADATA.promptFingerprint] = fingerprint;
  }
  return { type: 'MessageStop', finishReason, usage, metadata };
}
