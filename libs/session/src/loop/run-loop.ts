/**
 * A run from its first message to its terminal: drain steering, turn, classify, repeat. The ending
 * answers unanswered tool calls, cancels the run's questions, hands the trace to the listener and
 * emits RunEnded — all before the run's promise settles. An unexpected programming error rejects the
 * promise with that same error instead, and the session closes.
 */
import { type Citation, Message, SessionContext, isProgrammingError } from '@helios/core';
import { RunCancelledError } from '../errors.js';
import { describeResult, type ResultMessage, type Verdict } from '../result-message.js';
import { SerializedError } from '../serialized-error.js';
import { newRunTrace } from '../tracing/run-trace.js';
import { checkContext, contextNeedsCare } from './context-watermark.js';
import { type RunState } from './run-state.js';
import { type RunScope } from './run-scope.js';
import { type SessionCore } from './session-core.js';
import { drainSteering, enqueue } from './steering.js';
import { classify } from './stop-classifier.js';
import { runTurn } from './turn.js';
import { closeRestoredQuestions, openCalls, resumeOpenCalls } from './resume.js';
import { SessionConflictError } from '../store/session-store.js';

export async function executeRun(core: SessionCore, run: RunState, citations: Citation[]): Promise<void> {
  const { limits, traceListener, traceDetail, model } = core.options;
  if (!run.resume) closeRestoredQuestions(core, (why) => answerOpenCalls(core, why));
  run.started = true;
  run.startedAt = Date.now();
  if (traceListener) {
    run.trace = newRunTrace({
      detail: traceDetail,
      sessionId: core.sessionId,
      runId: run.id,
      modelId: model.id,
    });
  }
  run.wallClockTimer = setTimeout(
    () => run.cancel(`maxWallClock exceeded after ${limits.maxWallClockMs}ms`, true),
    limits.maxWallClockMs,
  );
  run.wallClockTimer.unref?.();
  const userText = run.queue.map((message) => message.content).join('\n');
  const sessionContext = SessionContext.create(core.sessionId, run.signal, core.options.secrets);
  const scope: RunScope = { core, run, sessionContext, citations };
  let verdict: Verdict;
  try {
    verdict = await loop(scope);
  } catch (error) {
    const fatal = core.fatal ? core.fatal.error : error;
    if (isProgrammingError(fatal)) {
      core.raiseFatal(fatal);
      await failRun(core, run, fatal);
      return;
    }
    verdict = { type: 'ErrorDuringExecution', error: core.redaction.error(error) };
  }
  try {
    const result = await endRun(scope, verdict, userText);
    if (core.fatal) await failRun(core, run, core.fatal.error);
    else run.settle(result);
    // Another writer took the session: it closes once this run's result is out.
    if (core.persistence?.conflicted) core.onConflict();
  } catch (error) {
    core.raiseFatal(error);
    await failRun(core, run, core.fatal ? core.fatal.error : error);
  }
}

async function loop(scope: RunScope): Promise<Verdict> {
  const { core, run, citations } = scope;
  core.emit(run, { type: 'RunStarted' });
  if (run.resume) {
    const resumed = await resumeOpenCalls(scope);
    if (resumed) return resumed;
  }
  for (;;) {
    core.throwIfFatal();
    const pause = core.yieldToReaders();
    if (pause) await pause;
    const stopped = run.queue.length > 0 ? await drainSteering(core, run) : undefined;
    if (stopped) return stopped;
    if (!core.history.some((message) => message.role !== 'system')) {
      return {
        type: 'ErrorDuringExecution',
        error: SerializedError.ofKind('EmptyHistory', 'the conversation has no message to answer'),
      };
    }
    if (run.signal.aborted) return classifyNow(core, run);
    core.turnIndex += 1;
    run.turns += 1;
    const early = contextNeedsCare(core) ? await checkContext(core, run) : undefined;
    if (early) return early;
    const turn = await runTurn(scope);
    core.throwIfFatal();
    const storing = core.flushStore();
    if (storing) await storing;
    if (turn.terminal) return turn.terminal;
    const afterTurn = core.yieldToReaders();
    if (afterTurn) await afterTurn;
    const late = contextNeedsCare(core) ? await checkContext(core, run) : undefined;
    if (late) return late;
    const verdict = classify(core, run, turn.outcome);
    if (verdict === undefined) continue;
    if (verdict.type !== 'Success') return verdict;
    const response = {
      content: turn.outcome.content,
      finishReason: turn.outcome.finish ?? 'STOP',
      usage: run.usage,
      toolCalls: [],
      citations,
    } as const;
    const preStop = await core.decide(run, 'PreStop', (hook, context) => hook.handle(response, context));
    if (preStop?.outcome.type === 'Stop') return { type: 'Success', result: preStop.outcome.result };
    if (preStop?.outcome.type === 'Inject') {
      enqueue(core, run, preStop.outcome.message);
      continue;
    }
    return verdict;
  }
}

/** A run cancelled between turns: the classifier's first three checks decide. */
function classifyNow(core: SessionCore, run: RunState): Verdict {
  return (
    classify(core, run, { finish: undefined, content: '', attempts: 0 }) ?? {
      type: 'Cancelled',
      reason: run.cancelReason(),
    }
  );
}

async function endRun(scope: RunScope, verdict: Verdict, userText: string): Promise<ResultMessage> {
  const { core, run } = scope;
  closeRun(core, run, `the run ended (${verdict.type})`);
  const result = toResult(scope, await storeEnding(core, verdict));
  await deliverTrace(core, run, {
    error: describeResult(result),
    inputText: userText,
    outputText: result.type === 'Success' ? result.result : undefined,
  });
  await core.emitControl(run, { type: 'RunEnded', result });
  return result;
}

/** Rejects the run with the unexpected error, after the same clean-up an ordinary ending gets. */
async function failRun(core: SessionCore, run: RunState, error: unknown): Promise<void> {
  closeRun(core, run, 'the session ended on an unexpected error');
  const serialized = core.redaction.error(error);
  try {
    await deliverTrace(core, run, { error: `${serialized.kind}: ${serialized.message}` });
    await core.emitControl(run, { type: 'Error', error: serialized });
  } catch (later) {
    core.raiseFatal(later);
  }
  run.fail(error);
}

/** Stops the run's timers and work, answers its open tool calls and cancels its questions. */
function closeRun(core: SessionCore, run: RunState, why: string): void {
  if (run.ending) return;
  run.ending = true;
  clearTimeout(run.wallClockTimer);
  run.idleWatch?.dispose();
  answerOpenCalls(core, why);
  const cancelled = new RunCancelledError(why);
  core.questions.cancelRun(run.id, cancelled);
  if (run.queue.length > 0) {
    core.options.logger.debug(`run ${run.id} ended with ${run.queue.length} queued message(s) unread`);
    run.queue.length = 0;
  }
  if (!run.signal.aborted) run.controller.abort(cancelled);
}

/** Gives every tool call of the last assistant turn that has no answer a "not run" tool message. */
export function answerOpenCalls(core: SessionCore, why: string): void {
  for (const call of openCalls(core))
    core.append(Message.tool(call.id, call.name, `tool call not run: ${why}`));
}

/**
 * Stores the run's ending. A store that cannot take it turns the verdict into an error naming why, so
 * a caller never believes a conversation is kept that is not: SessionConflict when another writer took
 * the session (which then closes), the store's own error otherwise (the next run writes it again).
 */
async function storeEnding(core: SessionCore, verdict: Verdict): Promise<Verdict> {
  try {
    await core.flushStore();
    return verdict;
  } catch (error) {
    if (isProgrammingError(error)) throw error;
    if (verdict.type === 'ErrorDuringExecution' && verdict.error.kind === 'SessionConflict') return verdict;
    if (!(error instanceof SessionConflictError)) {
      core.options.logger.warn('session store write failed', core.redaction.errorForLog(error));
    }
    return { type: 'ErrorDuringExecution', error: core.redaction.error(error) };
  }
}

function toResult({ core, run, citations }: RunScope, verdict: Verdict): ResultMessage {
  const base = {
    sessionId: core.sessionId,
    runId: run.id,
    usage: run.usage,
    cost: run.cost,
    durationMs: Math.max(0, Date.now() - run.startedAt),
  };
  if (verdict.type === 'Success')
    return Object.freeze({ ...base, ...verdict, citations: Object.freeze([...citations]) });
  return Object.freeze({ ...base, ...verdict });
}

/** The texts a run's trace ends with, before redaction; each may be absent. */
interface TraceTexts {
  readonly error?: string | undefined;
  readonly inputText?: string | undefined;
  readonly outputText?: string | undefined;
}

/** Hands the run's trace to the listener, bounded by stopGrace; an ordinary listener failure is logged. */
async function deliverTrace(core: SessionCore, run: RunState, end: TraceTexts): Promise<void> {
  const { error, inputText, outputText } = end;
  const listener = core.options.traceListener;
  if (!listener || !run.trace) return;
  const redact = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : core.redaction.text(text);
  const trace = run.trace.finish({
    ...(error === undefined ? {} : { error: core.redaction.text(error) }),
    ...(inputText === undefined ? {} : { inputText: redact(inputText) as string }),
    ...(outputText === undefined ? {} : { outputText: redact(outputText) as string }),
  });
  const grace = core.options.limits.stopGraceMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(() => listener.onTrace(trace)),
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          core.options.logger.warn(`trace listener still running after ${grace} ms; not waiting`);
          resolve();
        }, grace);
      }),
    ]);
  } catch (error) {
    if (isProgrammingError(error)) throw error;
    core.options.logger.warn('trace listener failed', core.redaction.errorForLog(error));
  } finally {
    clearTimeout(timer);
  }
}
