/**
 * AgentSession: a conversation that runs many times. `send` steers the run in progress or starts the
 * next one; every run sees the whole conversation; the session runs again after any ending until it
 * is closed.
 */
import {
  type Citation,
  InvalidArgumentError,
  Message,
  type Message as ConversationMessage,
  type OutputSchema,
  type SecretRegistry,
  StructuredOutputParseError,
  type UserMessage,
  isProgrammingError,
} from '@helios/core';
import { RunNotSuccessfulError, SessionClosedError, SteeringQueueFullError } from './errors.js';
import { type EventStream } from './events/event-stream.js';
import { endExecution, startExecution } from './execution/provider-lifecycle.js';
import { executeRun } from './loop/run-loop.js';
import { RunState } from './loop/run-state.js';
import { SessionCore } from './loop/session-core.js';
import { resolveOptions, type SessionOptions } from './options.js';
import { checkResponse, type QuestionRequest, type QuestionResponse } from './questions/question.js';
import { type DormantQuestion } from './questions/pending-questions.js';
import { restoreConversation } from './store/restore.js';
import { type ResultMessage } from './result-message.js';
import { within } from './within.js';

export interface EventsOptions {
  /** Ends the stream when it aborts (the reader's own cancellation). */
  readonly signal?: AbortSignal;
}

export class AgentSession implements AsyncDisposable {
  readonly #core: SessionCore;
  /** Session-wide citations, deduplicated by value, reported on every Success. */
  readonly #citations: Citation[] = [];
  #closing: Promise<void> | undefined;

  private constructor(core: SessionCore) {
    this.#core = core;
    core.onFatal = () => void this.close();
    core.onConflict = () => void this.close();
  }

  /**
   * Opens a session with no run and starts its execution provider. Throws InvalidArgumentError for
   * invalid options (bad id, two tools with one name), SessionUnavailableError when the provider refuses.
   * With a store, the conversation stored under the session id is loaded first (the store's errors,
   * e.g. SessionStoreCorruptError, reject the open); its open questions are pending again.
   */
  static async open(options: SessionOptions): Promise<AgentSession> {
    const core = new SessionCore(resolveOptions(options));
    if (core.options.store) await restoreConversation(core, core.options.store);
    await startExecution(core);
    return new AgentSession(core);
  }

  get sessionId(): string {
    return this.#core.sessionId;
  }

  get closed(): boolean {
    return this.#core.closed;
  }

  /** Model turns taken so far by all runs. */
  get currentTurnIndex(): number {
    return this.#core.turnIndex;
  }

  /** The conversation as the model sees it (system prompt first, when there is one). */
  get history(): readonly ConversationMessage[] {
    return Object.freeze([...this.#core.history]);
  }

  get secrets(): SecretRegistry {
    return this.#core.options.secrets;
  }

  /** Steers the run in progress, or starts the next run; resolves with that run's result. */
  send(message: string | UserMessage): Promise<ResultMessage> {
    return this.#submit(message, undefined);
  }

  runBlocking(message: string | UserMessage): Promise<ResultMessage>;
  /** The run's answer parsed with `schema`; a parse failure mid-run is corrected by the loop. */
  runBlocking<T>(message: string | UserMessage, schema: OutputSchema<T>): Promise<T>;
  async runBlocking<T>(message: string | UserMessage, schema?: OutputSchema<T>): Promise<ResultMessage | T> {
    const result = await this.#submit(message, schema);
    if (!schema) return result;
    if (result.type !== 'Success') throw new RunNotSuccessfulError(result);
    const value = schema.parse(result.result, this.#core.options.model.rawOutputCapture);
    // The loop already corrected a blank answer and hooks cannot stop with blank text: kept for the type.
    return value ?? blankAnswer();
  }

  /** Cancels the run in progress (Cancelled "interrupted"); the session stays open. */
  interrupt(): boolean {
    const run = this.#core.current;
    if (!run || run.ending || run.signal.aborted) return false;
    run.cancel('interrupted');
    return true;
  }

  /** A new reader of every later event, across runs, until the session closes. */
  events(options: EventsOptions = {}): EventStream {
    return this.#core.hub.open(options.signal);
  }

  /**
   * Answers a pending question; UnknownQuestionError when it is not pending, InvalidArgumentError for a
   * bad response. Answering a question restored from the store starts a run that resumes the call it
   * was asked for; that run's result arrives as its RunEnded event.
   */
  answer(questionId: string, response: QuestionResponse): void {
    if (this.#core.closed) throw new SessionClosedError(`session ${this.sessionId} is closed`);
    const questions = this.#core.questions;
    if (!this.#core.current) {
      const checked = checkResponse(response);
      const dormant = questions.takeDormant(questionId);
      if (dormant) return this.#resume(dormant, checked);
    }
    questions.answer(questionId, response);
  }

  pendingQuestions(): readonly QuestionRequest[] {
    return this.#core.questions.list();
  }

  /**
   * Cancels the run in progress ("session closed"), waits for it, then ends the event streams, all
   * within one stopGrace deadline. Never throws.
   */
  close(): Promise<void> {
    this.#closing ??= this.#teardown();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #submit(input: string | UserMessage, schema: OutputSchema<unknown> | undefined): Promise<ResultMessage> {
    const core = this.#core;
    if (core.closed) return Promise.reject(new SessionClosedError(`session ${this.sessionId} is closed`));
    let message: UserMessage;
    try {
      message = toUserMessage(input);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const run = this.#acceptingRun();
    if (run.queue.length >= core.options.concurrency.maxQueuedUserMessages) {
      return Promise.reject(
        new SteeringQueueFullError(`run ${run.id} already holds ${run.queue.length} messages`),
      );
    }
    run.queue.push(message);
    if (schema) run.schema = schema;
    if (!run.started && core.current === run) this.#start(run);
    return run.promise;
  }

  /** The run a new message belongs to: the one in progress, unless it is ending; then the next one. */
  #acceptingRun(): RunState {
    const core = this.#core;
    if (!core.current) {
      core.current = new RunState();
      return core.current;
    }
    if (!core.current.ending) return core.current;
    core.next ??= new RunState();
    return core.next;
  }

  #resume(question: DormantQuestion, response: QuestionResponse): void {
    const run = new RunState();
    run.resume = { questionId: question.request.questionId, toolCallId: question.toolCallId, response };
    run.promise.catch(() => undefined); // reported through RunEnded (or Error) like every run
    this.#core.current = run;
    this.#start(run);
  }

  #start(run: RunState): void {
    void executeRun(this.#core, run, this.#citations)
      .catch((error: unknown) => this.#core.raiseFatal(error))
      .finally(() => this.#afterRun(run));
  }

  #afterRun(run: RunState): void {
    const core = this.#core;
    if (core.current !== run) return;
    core.current = core.next;
    core.next = undefined;
    if (core.current && !core.closed) this.#start(core.current);
  }

  async #teardown(): Promise<void> {
    const core = this.#core;
    const { stopGraceMs } = core.options.limits;
    const deadline = Date.now() + stopGraceMs;
    core.beginClosing();
    try {
      const next = core.next;
      core.next = undefined;
      if (next) next.settle(neverStarted(core.sessionId, next));
      const run = core.current;
      if (run) {
        run.cancel('session closed');
        if (!(await within(run.done, deadline - Date.now()))) {
          core.options.logger.warn(`run ${run.id} still running ${stopGraceMs} ms after close; not waiting`);
        }
      }
    } catch (error) {
      const log = isProgrammingError(error) ? core.options.logger.error : core.options.logger.warn;
      log('session teardown failed', core.redaction.errorForLog(error));
    }
    try {
      // The provider ends after the run and before the streams, on what is left of the same deadline.
      await endExecution(core, deadline);
    } finally {
      core.hub.close();
    }
  }
}

function toUserMessage(input: string | UserMessage): UserMessage {
  if (typeof input === 'string') {
    if (input.trim() === '')
      throw new InvalidArgumentError('a message needs non-blank text or an attachment');
    return Message.user(input);
  }
  if (input === null || typeof input !== 'object' || input.role !== 'user') {
    throw new InvalidArgumentError('send takes text or a user message');
  }
  if (input.content.trim() === '' && input.inlineFiles.length === 0 && input.fileReferences.length === 0) {
    throw new InvalidArgumentError('a message needs non-blank text or an attachment');
  }
  return input;
}

/** The result of a run the session closed before it could start. */
function neverStarted(sessionId: string, run: RunState): ResultMessage {
  return Object.freeze({
    type: 'Cancelled',
    reason: 'session closed',
    sessionId,
    runId: run.id,
    usage: run.usage,
    cost: run.cost,
    durationMs: 0,
  });
}

function blankAnswer(): never {
  throw new StructuredOutputParseError(
    [{ path: '', message: 'response is empty; expected a JSON value' }],
    undefined,
  );
}
