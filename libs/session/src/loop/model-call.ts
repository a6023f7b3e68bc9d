/**
 * One model turn's call: stream the answer, retrying only TransientStreamError (TurnRetried before each
 * cancellable backoff), with an idle ceiling between chunks. Every attempt is a `model.call` span; a
 * completed attempt's usage and cost count against the run at once.
 */
import {
  Backoff,
  type Citation,
  FinishReason,
  IncompleteStreamError,
  type MessageStop,
  type ModelChunk,
  type SpanRecorder,
  type ToolCall,
  TraceDetail,
  TransientStreamError,
  isProgrammingError,
} from '@helios/core';
import { StreamIdleTimeoutError } from '../errors.js';
import { renderPrompt } from '../tracing/run-trace.js';
import { ArgumentDeltas } from './argument-deltas.js';
import { IdleWatch } from './idle-watch.js';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

export interface ModelAnswer {
  /** Undefined: cancelled. */
  readonly finish: FinishReason | undefined;
  readonly content: string;
  readonly thinking: string | undefined;
  readonly toolCalls: readonly ToolCall[];
  readonly citations: readonly Citation[];
  readonly metadata: Readonly<Record<string, string>>;
  readonly stop: MessageStop | undefined;
  readonly error?: unknown;
  readonly attempts: number;
}

type Attempt =
  { readonly ok: true; readonly answer: ModelAnswer } | { readonly ok: false; readonly error: unknown };

export async function callModel(core: SessionCore, run: RunState): Promise<ModelAnswer> {
  const policy = core.options.limits.streamRetry;
  for (let attempt = 1; ; attempt += 1) {
    const result = await streamOnce(core, run, attempt);
    if (result.ok) return result.answer;
    const error = result.error;
    if (run.signal.aborted) return cancelled(attempt);
    if (error instanceof TransientStreamError && attempt < policy.maxAttempts) {
      const backoffMs = Backoff.jitteredDelayMs(policy.backoff, attempt, { jitter: policy.jitter });
      core.emit(run, {
        type: 'TurnRetried',
        attemptNumber: attempt,
        backoffMs,
        providerName: error.providerName,
        error: core.redaction.error(error),
      });
      if (!(await sleep(backoffMs, run.signal))) return cancelled(attempt);
      continue;
    }
    return { ...EMPTY, finish: FinishReason.ERROR, error, attempts: attempt };
  }
}

const EMPTY: Omit<ModelAnswer, 'finish' | 'attempts'> = Object.freeze({
  content: '',
  thinking: undefined,
  toolCalls: [],
  citations: [],
  metadata: {},
  stop: undefined,
});

function cancelled(attempts: number): ModelAnswer {
  return { ...EMPTY, finish: undefined, attempts };
}

/** Resolves true after `ms`, false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function streamOnce(core: SessionCore, run: RunState, attempt: number): Promise<Attempt> {
  const { model, limits } = core.options;
  const span = run.trace
    ?.span('model.call')
    .attribute('attempt', String(attempt))
    .attribute('modelId', model.id);
  // Rendering the prompt is O(history): only VERBOSE keeps it, so only VERBOSE pays for it.
  if (span && core.options.traceDetail === TraceDetail.VERBOSE) {
    span.content({ input: core.redaction.text(renderPrompt(core.history)) });
  }
  // Closing the stream is how the idle ceiling aborts it: the run's signal goes to the model as is.
  const idle = (run.idleWatch ??= new IdleWatch(limits.streamIdleTimeoutMs));
  let content = '';
  let thinking: string | undefined;
  const tally: StreamTally = {
    core,
    run,
    toolCalls: [],
    citations: [],
    deltas: new ArgumentDeltas(core.redaction),
  };
  const { toolCalls, citations } = tally;
  let stop: MessageStop | undefined;
  try {
    const schema = run.schema ?? core.options.outputSchema;
    const stream = model.chatStream(
      core.history,
      core.toolDefinitions(),
      schema ? { signal: run.signal, schema } : { signal: run.signal },
    );
    idle.start(stream);
    for await (const chunk of stream) {
      idle.touch();
      stop = onChunk(tally, chunk);
      if (chunk.type === 'TextDelta') content += chunk.text;
      else if (chunk.type === 'ThinkingDelta') thinking = (thinking ?? '') + chunk.text;
      if (stop) break;
      const pause = core.yieldToReaders();
      if (pause) await pause;
    }
    if (!stop) throw new IncompleteStreamError('model stream ended without a MessageStop chunk');
  } catch (caught) {
    const error = idle.fired
      ? new StreamIdleTimeoutError(`no chunk from the model for ${idle.ms} ms`)
      : caught;
    if (isProgrammingError(error)) throw error;
    failSpan(span, core, error);
    return { ok: false, error };
  } finally {
    idle.stop();
  }
  const cost = core.options.costCalculator.cost(model.id, stop.usage);
  run.addUsage(stop.usage, cost);
  if (citations.length > 0) core.emit(run, { type: 'AssistantCitations', citations });
  span
    ?.usage(stop.usage)
    .cost(cost)
    .attribute('finishReason', stop.finishReason)
    .content({ output: core.redaction.text(content) })
    .end();
  return {
    ok: true,
    answer: {
      finish: stop.finishReason,
      content,
      thinking,
      toolCalls,
      citations,
      metadata: stop.metadata,
      stop,
      attempts: attempt,
    },
  };
}

function failSpan(span: SpanRecorder | undefined, core: SessionCore, error: unknown): void {
  span?.fail(core.redaction.text(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
}

/** What one model call collects from its stream: made once per call, handed to `onChunk` per chunk. */
interface StreamTally {
  readonly core: SessionCore;
  readonly run: RunState;
  readonly toolCalls: ToolCall[];
  readonly citations: Citation[];
  readonly deltas: ArgumentDeltas;
}

/** Emits what a chunk means for readers; returns the MessageStop that ends the turn. */
function onChunk(tally: StreamTally, chunk: ModelChunk): MessageStop | undefined {
  const { core, run, deltas } = tally;
  switch (chunk.type) {
    case 'TextDelta':
      core.emit(run, { type: 'AssistantText', text: chunk.text });
      return undefined;
    case 'ThinkingDelta':
      core.emit(run, { type: 'AssistantThinking', text: chunk.text, signature: '' });
      return undefined;
    case 'ToolUseStart':
      deltas.start(chunk.callId, chunk.toolName);
      return undefined;
    case 'ToolUseDelta': {
      const event = deltas.delta(chunk.callId, chunk.argumentsDelta);
      if (event) core.emit(run, event);
      return undefined;
    }
    case 'ToolUseStop': {
      const rest = deltas.stop(chunk.toolCall.id);
      if (rest) core.emit(run, rest);
      tally.toolCalls.push(chunk.toolCall);
      return undefined;
    }
    case 'Citations':
      tally.citations.push(...chunk.citations);
      return undefined;
    case 'MessageStop':
      return chunk;
    case 'UsageDelta':
      return undefined; // progress only: the final usage comes with MessageStop
    default: {
      const unknown: never = chunk;
      return unknown;
    }
  }
}
