/**
 * One model turn against the Interactions API, with provider continuation. When the conversation can
 * continue an earlier interaction (see findContinuation) only the new turns are sent; when the API
 * answers that the interaction is gone (expired, deleted, unknown) the turn is sent again once with
 * the whole history, before anything reached the caller. With continuation off every request carries
 * the whole history, asks the API not to store it, and no interaction id is sent or returned.
 */
import { type MessageStop, type ModelChunk, type ModelRequest } from '@helios/core';
import { ProviderRejectedError, ProviderTransientError } from '../shared/provider-errors.js';
import { type HttpSettings, postForEvents } from '../shared/provider-http.js';
import { type GeminiApiVersion } from './gemini-endpoint.js';
import { GEMINI_METADATA, SIGNATURE_SEPARATOR } from './gemini-metadata.js';
import { type GeminiRequestOptions } from './gemini-options.js';
import { buildGeminiBody, type Continuation, contextDigest, findContinuation } from './gemini-request.js';
import { finishReasonOf, type GeminiSegment, GeminiStreamState } from './gemini-stream.js';

export interface GeminiTarget {
  readonly modelId: string;
  readonly url: string;
  readonly apiVersion: GeminiApiVersion;
  readonly headers: () => Record<string, string>;
  readonly http: HttpSettings;
  readonly options: GeminiRequestOptions;
  readonly providerContinuation: boolean;
}

export async function* geminiTurn(
  target: GeminiTarget,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelChunk, void, undefined> {
  const digest = target.providerContinuation ? contextDigest(request) : undefined;
  const continuation = digest === undefined ? undefined : findContinuation(request.messages, digest);
  const state = new GeminiStreamState(target.http);
  let yielded = false;
  try {
    for await (const chunk of attempt(target, request, signal, state, continuation)) {
      yielded = true;
      yield chunk;
    }
  } catch (error) {
    if (continuation === undefined || yielded || !interactionGone(error)) throw error;
    // The interaction expired or was deleted: one full resend, never a failed turn.
    yield* attempt(target, request, signal, new GeminiStreamState(target.http), undefined);
    return;
  }
}

async function* attempt(
  target: GeminiTarget,
  request: ModelRequest,
  signal: AbortSignal,
  state: GeminiStreamState,
  continuation: Continuation | undefined,
): AsyncGenerator<ModelChunk, void, undefined> {
  const body = buildGeminiBody({
    modelId: target.modelId,
    options: target.options,
    request,
    ...(continuation === undefined ? {} : { continuation }),
    stateless: !target.providerContinuation,
  });
  const events = postForEvents(target.http, { url: target.url, headers: target.headers(), body, signal });
  // One array of chunks per event, reused: a generator per event cost more than decoding the event.
  const out: ModelChunk[] = [];
  read: for await (const batch of events) {
    for (const event of batch) {
      out.length = 0;
      state.accept(event, out);
      for (const chunk of out) yield chunk;
      if (state.segment !== undefined) break read;
    }
  }
  if (state.segment === undefined) {
    const provider = target.http.provider;
    throw new ProviderTransientError(
      `${provider}: stream ended before interaction.completed`,
      provider,
      0,
      undefined,
    );
  }
  yield turnStop(target, state.segment, request);
}

function turnStop(target: GeminiTarget, segment: GeminiSegment, request: ModelRequest): MessageStop {
  const metadata: Record<string, string> = {
    [GEMINI_METADATA.apiVersion]: target.apiVersion,
    [GEMINI_METADATA.status]: segment.status,
  };
  if (target.providerContinuation && segment.interactionId !== undefined) {
    metadata[GEMINI_METADATA.interactionId] = segment.interactionId;
    metadata[GEMINI_METADATA.contextDigest] = contextDigest(request);
  }
  if (segment.signatures.length > 0) {
    metadata[GEMINI_METADATA.thoughtSignatures] = segment.signatures.join(SIGNATURE_SEPARATOR);
  }
  return { type: 'MessageStop', finishReason: finishReasonOf(segment), usage: segment.usage, metadata };
}

/** The API's answer to a `previous_interaction_id` it no longer has (404/410, or a 400 naming it). */
function interactionGone(error: unknown): boolean {
  if (!(error instanceof ProviderRejectedError)) return false;
  if (error.statusCode === 404 || error.statusCode === 410) return true;
  return error.statusCode === 400 && /interaction/i.test(error.message);
}
