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
  type SessionContext,
  StructuredOutputParseError,
  Usage,
  isProgrammingError,
} from '@helios/core';
import { type TurnResponse } from '../hooks/hook.js';
import { type HookDecision } from '../hooks/hook-runner.js';
import { SerializedError } from '../serialized-error.js';
import { StopReason, stopReasonOf } from '../stop-reason.js';
import { type Verdict } from '../result-message.js';
import { callModel } from './model-call.js';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';
import { enqueue } from './steering.js';
import { type TurnOutcome } from './stop-classifier.js';
import { runToolRound } from './tool-round.js';

export interface TurnResult {
  readonly outcome: TurnOutcome;
  /** A hook ended the run, or the schema correction could not be queued. */
  readonly terminal?: Verdict;
}

export async function runTurn(
  core: SessionCore,
  run: RunState,
  sessionContext: SessionContext,
  citations: Citation[],
): Promise<TurnResult> {
  const usageBefore = run.usage;
  const costBefore = run.cost;
  let pre: HookDecision | undefined;
  if (core.hooks.has('PreModelTurn')) {
    const deciding = core.decide(run, 'PreModelTurn', (hook, context) =>
      hook.handle([...core.history], context),
    );
    pre = deciding instanceof Promise ? await deciding : deciding;
  }
  switch (pre?.outcome.type) {
    case 'Stop':
      return { outcome: skipped(), terminal: { type: 'Success', result: pre.outcome.result } };
    case 'Inject':
      enqueue(core, run, pre.outcome.message);
      endTurn(core, run, StopReason.TOOL_USE, usageBefore, costBefore);
      return { outcome: skipped() };
    case 'MutateHistory':
      core.replaceHistory(pre.outcome.messages);
      break;
    default:
      break;
  }
  const answer = await callModel(core, run);
  core.throwIfFatal();
  if (answer.finish === undefined) {
    endTurn(core, run, StopReason.INTERRUPTED, usageBefore, costBefore);
    return { outcome: { finish: undefined, content: answer.content, attempts: answer.attempts } };
  }
  let finish: FinishReason = answer.finish;
  let terminal: Verdict | undefined;
  for (const citation of answer.citations) addCitation(citations, citation);
  const schema = run.schema ?? core.options.outputSchema;
  if (schema && finish === FinishReason.STOP && answer.toolCalls.length === 0) {
    const correction = schemaCorrection(core, schema, answer.content);
    if (correction !== undefined) {
      // Kept whole, thinking included: a provider that signs its reasoning wants it replayed as given.
      core.append(
        Message.assistant(answer.content, {
          metadata: answer.metadata,
          ...(answer.thinking === undefined ? {} : { thinking: answer.thinking }),
        }),
      );
      if (!enqueue(core, run, correction)) {
        terminal = {
          type: 'ErrorDuringExecution',
          error: SerializedError.ofKind(
            'StructuredOutputParseError',
            'steering queue full; correction dropped',
          ),
        };
      }
      finish = FinishReason.TOOL_CALLS;
    } else {
      appendAnswer(core, answer.content, answer.thinking, answer.metadata);
    }
  } else if (answer.toolCalls.length > 0) {
    core.append(
      Message.assistant(answer.content, {
        toolCalls: answer.toolCalls,
        metadata: answer.metadata,
        ...(answer.thinking === undefined ? {} : { thinking: answer.thinking }),
      }),
    );
    terminal = await runToolRound(core, run, answer.toolCalls, sessionContext);
    finish = FinishReason.TOOL_CALLS;
  } else if (finish !== FinishReason.ERROR) {
    appendAnswer(core, answer.content, answer.thinking, answer.metadata);
  }
  if (!terminal && core.hooks.has('PostModelTurn')) {
    const response: TurnResponse = {
      content: answer.content,
      finishReason: finish,
      usage: answer.stop?.usage ?? Usage.ZERO,
      toolCalls: answer.toolCalls,
      citations: answer.citations,
    };
    const deciding = core.decide(run, 'PostModelTurn', (hook, context) => hook.handle(response, context));
    const post = deciding instanceof Promise ? await deciding : deciding;
    if (post?.outcome.type === 'Stop') terminal = { type: 'Success', result: post.outcome.result };
    else if (post?.outcome.type === 'Inject') enqueue(core, run, post.outcome.message);
  }
  endTurn(core, run, stopReasonOf(finish), usageBefore, costBefore);
  return {
    outcome: { finish, content: answer.content, error: answer.error, attempts: answer.attempts },
    ...(terminal ? { terminal } : {}),
  };
}

function skipped(): TurnOutcome {
  return { finish: FinishReason.TOOL_CALLS, content: '', attempts: 0 };
}

function appendAnswer(
  core: SessionCore,
  content: string,
  thinking: string | undefined,
  metadata: Readonly<Record<string, string>>,
): void {
  if (content === '') return;
  core.append(Message.assistant(content, { metadata, ...(thinking === undefined ? {} : { thinking }) }));
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

function endTurn(
  core: SessionCore,
  run: RunState,
  reason: StopReason,
  usageBefore: Usage,
  costBefore: CostEstimate,
): void {
  const now = run.usage;
  const usage = Usage.of(
    now.inputTokens - usageBefore.inputTokens,
    now.outputTokens - usageBefore.outputTokens,
    now.cacheWriteTokens - usageBefore.cacheWriteTokens,
    now.cacheReadTokens - usageBefore.cacheReadTokens,
  );
  core.emit(run, {
    type: 'TurnEnded',
    reason,
    usage,
    cost: CostEstimate.ofMicroUsd(run.cost.microUsd - costBefore.microUsd),
  });
}

function addCitation(citations: Citation[], citation: Citation): void {
  const key = JSON.stringify(citation);
  if (!citations.some((existing) => JSON.stringify(existing) === key)) citations.push(citation);
}
