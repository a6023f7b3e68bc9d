/**
 * One turn: PreModelTurn hooks, the model call, structured-output self-correction, the tool round,
 * PostModelTurn hooks and TurnEnded.
 */
import {
  type Citation,
  CostEstimate,
  FinishReason,
  Message,
  type OutputSchema,
  StructuredOutputParseError,
  Usage,
  isProgrammingError,
} from '@helios/core';
import { type TurnResponse } from '../hooks/hook.js';
import { type HookDecision } from '../hooks/hook-runner.js';
import { SerializedError } from '../serialized-error.js';
import { StopReason, stopReasonOf } from '../stop-reason.js';
import { type Verdict } from '../result-message.js';
import { callModel, type ModelAnswer } from './model-call.js';
import { type RunScope } from './run-scope.js';
import { type SessionCore } from './session-core.js';
import { enqueue } from './steering.js';
import { type TurnOutcome } from './stop-classifier.js';
import { runToolRound } from './tool-round.js';

export interface TurnResult {
  readonly outcome: TurnOutcome;
  /** A hook ended the run, or the schema correction could not be queued. */
  readonly terminal?: Verdict;
}

/** The run's usage and cost when the turn began: TurnEnded reports the difference. */
interface TurnStart {
  readonly usage: Usage;
  readonly cost: CostEstimate;
}

/**
 * Hook answers are awaited only when a hook returned a promise, and the tool round only when there are
 * tool calls: a suspension per step was a measurable part of every turn.
 */
export async function runTurn(scope: RunScope): Promise<TurnResult> {
  const { core, run } = scope;
  const start: TurnStart = { usage: run.usage, cost: run.cost };
  if (core.hooks.has('PreModelTurn')) {
    const deciding = core.decide(run, 'PreModelTurn', (hook, context) =>
      hook.handle([...core.history], context),
    );
    const skipped = applyPreModelTurn(scope, deciding instanceof Promise ? await deciding : deciding, start);
    if (skipped) return skipped;
  }
  const answer = await callModel(core, run);
  core.throwIfFatal();
  if (answer.finish === undefined) {
    endTurn(scope, StopReason.INTERRUPTED, start);
    return { outcome: { finish: undefined, content: answer.content, attempts: answer.attempts } };
  }
  let finish: FinishReason = answer.finish;
  let terminal: Verdict | undefined;
  for (const citation of answer.citations) addCitation(scope.citations, citation);
  const schema = run.schema ?? core.options.outputSchema;
  if (schema && finish === FinishReason.STOP && answer.toolCalls.length === 0) {
    const correction = schemaCorrection(core, schema, answer.content);
    if (correction !== undefined) {
      terminal = queueCorrection(scope, answer, correction);
      finish = FinishReason.TOOL_CALLS;
    } else appendAnswer(core, answer);
  } else if (answer.toolCalls.length > 0) {
    core.append(
      Message.assistant(answer.content, { toolCalls: answer.toolCalls, ...assistantExtras(answer) }),
    );
    terminal = await runToolRound(scope, answer.toolCalls);
    finish = FinishReason.TOOL_CALLS;
  } else if (finish !== FinishReason.ERROR) appendAnswer(core, answer);
  if (!terminal && core.hooks.has('PostModelTurn')) {
    const response = turnResponse(answer, finish);
    const deciding = core.decide(run, 'PostModelTurn', (hook, context) => hook.handle(response, context));
    terminal = applyPostModelTurn(scope, deciding instanceof Promise ? await deciding : deciding);
  }
  endTurn(scope, stopReasonOf(finish), start);
  return {
    outcome: { finish, content: answer.content, error: answer.error, attempts: answer.attempts },
    ...(terminal ? { terminal } : {}),
  };
}

/** A PreModelTurn decision: Stop or Inject skip the model call (the turn they return), MutateHistory edits. */
function applyPreModelTurn(
  scope: RunScope,
  pre: HookDecision | undefined,
  start: TurnStart,
): TurnResult | undefined {
  switch (pre?.outcome.type) {
    case 'Stop':
      return { outcome: skipped(), terminal: { type: 'Success', result: pre.outcome.result } };
    case 'Inject':
      enqueue(scope.core, scope.run, pre.outcome.message);
      endTurn(scope, StopReason.TOOL_USE, start);
      return { outcome: skipped() };
    case 'MutateHistory':
      scope.core.replaceHistory(pre.outcome.messages);
      return undefined;
    default:
      return undefined;
  }
}

/** A PostModelTurn decision: Stop ends the run with its result, Inject queues a message. */
function applyPostModelTurn(scope: RunScope, post: HookDecision | undefined): Verdict | undefined {
  if (post?.outcome.type === 'Stop') return { type: 'Success', result: post.outcome.result };
  if (post?.outcome.type === 'Inject') enqueue(scope.core, scope.run, post.outcome.message);
  return undefined;
}

/** Keeps the off-schema answer and queues the correction; a full queue ends the run. */
function queueCorrection(scope: RunScope, answer: ModelAnswer, correction: string): Verdict | undefined {
  // Kept whole, thinking included: a provider that signs its reasoning wants it replayed as given.
  scope.core.append(Message.assistant(answer.content, assistantExtras(answer)));
  if (enqueue(scope.core, scope.run, correction)) return undefined;
  return {
    type: 'ErrorDuringExecution',
    error: SerializedError.ofKind('StructuredOutputParseError', 'steering queue full; correction dropped'),
  };
}

function turnResponse(answer: ModelAnswer, finish: FinishReason): TurnResponse {
  return {
    content: answer.content,
    finishReason: finish,
    usage: answer.stop?.usage ?? Usage.ZERO,
    toolCalls: answer.toolCalls,
    citations: answer.citations,
  };
}

function skipped(): TurnOutcome {
  return { finish: FinishReason.TOOL_CALLS, content: '', attempts: 0 };
}

/** The assistant message's metadata, and its thinking when the model gave some. */
function assistantExtras(answer: ModelAnswer): {
  readonly metadata: Readonly<Record<string, string>>;
  readonly thinking?: string;
} {
  return answer.thinking === undefined
    ? { metadata: answer.metadata }
    : { metadata: answer.metadata, thinking: answer.thinking };
}

function appendAnswer(core: SessionCore, answer: ModelAnswer): void {
  if (answer.content === '') return;
  core.append(Message.assistant(answer.content, assistantExtras(answer)));
}

/**
 * The correction text when the answer does not match the schema (the run's own, else the session's),
 * else undefined. A blank answer is no value, so it is corrected like a wrong one.
 */
function schemaCorrection(
  core: SessionCore,
  schema: OutputSchema<unknown>,
  content: string,
): string | undefined {
  try {
    if (schema.parse(content, core.options.model.rawOutputCapture) !== undefined) return undefined;
    return BLANK_ANSWER_CORRECTION;
  } catch (error) {
    if (error instanceof StructuredOutputParseError) return error.correctionMessage();
    if (isProgrammingError(error)) throw error;
    return `Your previous response could not be checked against the required schema (${error instanceof Error ? error.message : String(error)}). Reply again with only the JSON value.`;
  }
}

export const BLANK_ANSWER_CORRECTION =
  'Your previous response was empty. Reply with only the JSON value the required schema describes.';

function endTurn(scope: RunScope, reason: StopReason, start: TurnStart): void {
  const { core, run } = scope;
  const now = run.usage;
  const usageBefore = start.usage;
  const usage = Usage.of(
    now.inputTokens - usageBefore.inputTokens,
    now.outputTokens - usageBefore.outputTokens,
    {
      cacheWriteTokens: now.cacheWriteTokens - usageBefore.cacheWriteTokens,
      cacheReadTokens: now.cacheReadTokens - usageBefore.cacheReadTokens,
    },
  );
  core.emit(run, {
    type: 'TurnEnded',
    reason,
    usage,
    cost: CostEstimate.ofMicroUsd(run.cost.microUsd - start.cost.microUsd),
  });
}

function addCitation(citations: Citation[], citation: Citation): void {
  const key = JSON.stringify(citation);
  if (!citations.some((existing) => JSON.stringify(existing) === key)) citations.push(citation);
}
