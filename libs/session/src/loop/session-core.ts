/**
 * The state one session's runs share: options, conversation, event hub, hooks, questions, tools and
 * the first unexpected programming error, if one happened. The loop modules work on it; AgentSession
 * is its public face.
 */
import {
  hookSpanKind,
  InvalidArgumentError,
  Message,
  type Mutable,
  SessionContext,
  type ToolDefinition,
  toolDefinition,
  isProgrammingError,
} from '@helios/core';
import { SessionClosedError } from '../errors.js';
import { EventHub } from '../events/event-hub.js';
import { CONTROL_EVENT_WAIT_MS } from '../events/event-stream.js';
import { type HookContext, type HookOf, type HookReturn, phaseName } from '../hooks/hook.js';
import { type DecidingPhase, decide, type HookDecision, HookRegistry } from '../hooks/hook-runner.js';
import { type ResolvedOptions } from '../options.js';
import { permissionHook } from '../permissions/permission-hook.js';
import { type EventFields, type QueryEvent } from '../query-event.js';

type ControlFields = EventFields<Extract<QueryEvent, { type: 'RunEnded' | 'QuestionAsked' | 'Error' }>>;
type RoutineFields = EventFields<Exclude<QueryEvent, { type: 'RunEnded' | 'QuestionAsked' | 'Error' }>>;
import { PendingQuestions } from '../questions/pending-questions.js';
import {
  PERMISSION_QUESTION_PREFIX,
  type QuestionRequest,
  type QuestionResponse,
} from '../questions/question.js';
import { SessionRedaction } from '../redaction.js';
import { type SerializedError } from '../serialized-error.js';
import { askUserQuestionTool } from '../tools/ask-user-question.js';
import { ToolSlots } from '../tools/slots.js';
import { bindTool, type ToolBinding, ToolCategory } from '../tools/tool-binding.js';
import { type RunState } from './run-state.js';
import { type SessionPersistence } from '../store/session-persistence.js';

export class SessionCore {
  readonly options: ResolvedOptions;
  readonly sessionId: string;
  readonly hub: EventHub;
  readonly questions = new PendingQuestions();
  readonly redaction: SessionRedaction;
  /** The redaction as plain functions, made once: a closure per turn was a cost of every turn. */
  readonly redactError = (error: unknown): SerializedError => this.redaction.error(error);
  readonly redactText = (text: string): string => this.redaction.text(text);
  readonly #redactForLog = (error: unknown): unknown => this.redaction.errorForLog(error);
  readonly hooks: HookRegistry;
  readonly bindings = new Map<string, ToolBinding>();
  readonly slots: ToolSlots;
  readonly history: Message[] = [];
  historyTokens = 0;
  contextWarned = false;
  turnIndex = 0;
  current: RunState | undefined;
  next: RunState | undefined;
  closed = false;
  /** The provider accepted the session and has not been ended. */
  executionStarted = false;
  /** Made on first use: a session whose provider never looks (the no-op default) holds no signal. */
  #execution: { readonly controller: AbortController; readonly context: SessionContext } | undefined;
  /** The first unexpected programming error; boxed because any value can be thrown. */
  fatal: { readonly error: unknown } | undefined;
  /** Set by AgentSession: closes the session after a fatal error. */
  onFatal: () => void = () => undefined;
  /** Set by AgentSession: closes the session once another writer took it over (SessionConflict). */
  onConflict: () => void = () => undefined;
  /** The session's store link, when options name a store; set at open after the conversation loads. */
  persistence: SessionPersistence | undefined;
  readonly #allDefinitions: readonly ToolDefinition[];
  readonly #anyVisibility: boolean;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.sessionId = options.sessionId;
    this.redaction = new SessionRedaction(options.secrets);
    this.hub = new EventHub({
      capacity: options.eventBufferSize,
      controlWaitMs: CONTROL_EVENT_WAIT_MS,
      logger: options.logger,
    });
    const tools = [...options.tools];
    if (options.askUserQuestion) {
      tools.push(
        bindTool(
          askUserQuestionTool((request, signal) => this.ask(request, signal)),
          ToolCategory.CONTROL,
          { timeoutMs: options.limits.maxWallClockMs },
        ),
      );
    }
    for (const binding of tools) {
      if (this.bindings.has(binding.tool.name)) {
        throw new InvalidArgumentError(`two tools are named '${binding.tool.name}'`);
      }
      this.bindings.set(binding.tool.name, binding);
    }
    this.#allDefinitions = Object.freeze(tools.map((binding) => toolDefinition(binding.tool)));
    this.#anyVisibility = tools.some((binding) => binding.visible !== undefined);
    this.hooks = new HookRegistry([permissionHook(this), ...options.hooks]);
    this.slots = new ToolSlots(options.concurrency);
    this.questions.onClosed = (questionId) => this.persistence?.note({ kind: 'questionClosed', questionId });
    if (options.systemPrompt !== undefined) this.append(Message.system(options.systemPrompt));
  }

  /** The execution provider's view of the session; its signal fires when the session starts closing. */
  get executionContext(): SessionContext {
    if (!this.#execution) {
      const controller = new AbortController();
      const context = SessionContext.create(this.sessionId, controller.signal, this.options.secrets);
      this.#execution = { controller, context };
    }
    return this.#execution.context;
  }

  /** Close has begun: fires the execution context's signal, if anyone holds it. */
  beginClosing(): void {
    this.closed = true;
    this.#execution?.controller.abort(new SessionClosedError(`session ${this.sessionId} is closed`));
  }

  /** Tools offered to the model this turn. */
  toolDefinitions(): readonly ToolDefinition[] {
    if (!this.#anyVisibility) return this.#allDefinitions;
    const context = { sessionId: this.sessionId, turnIndex: this.turnIndex };
    return [...this.bindings.values()]
      .filter((binding) => binding.visible === undefined || binding.visible(context))
      .map((binding) => toolDefinition(binding.tool));
  }

  append(message: Message): void {
    this.history.push(message);
    this.historyTokens += this.options.tokenCounter.count([message]);
  }

  replaceHistory(messages: readonly Message[]): void {
    this.history.length = 0;
    this.history.push(...messages);
    this.historyTokens = this.options.tokenCounter.count(this.history);
    this.contextWarned = false;
    this.persistence?.markReplaced();
  }

  /** Stores what the conversation gained since the last flush; undefined without a store. */
  flushStore(): Promise<void> | undefined {
    return this.persistence?.flush(this.history);
  }

  /**
   * A yield point of the loop: when a reader that keeps up has a full buffer, resolves after one
   * macrotask in which it drains; otherwise undefined, and the loop goes on without a suspension.
   */
  yieldToReaders(): Promise<void> | undefined {
    return this.hub.needsYield ? this.hub.yieldToReaders() : undefined;
  }

  /** Emits a routine event: readers with room get it, full readers miss it; nothing waits. */
  emit(run: RunState, fields: RoutineFields): void {
    void this.#publish(run, fields);
  }

  /** Emits a control event (RunEnded, QuestionAsked, Error): resolves once every reader took or dropped it. */
  emitControl(run: RunState, fields: ControlFields): Promise<void> {
    return this.#publish(run, fields) ?? Promise.resolve();
  }

  /**
   * Completes the caller's fields into the event in place: every emit passes a fresh literal, and a
   * spread into a new object per event was a measurable part of every turn.
   */
  #publish(run: RunState, fields: EventFields): Promise<void> | undefined {
    const observers = this.hooks.of('OnStreamEvent');
    if (observers.length === 0 && this.hub.readerCount === 0) return undefined;
    const event = fields as Mutable<QueryEvent>;
    event.sessionId = this.sessionId;
    event.runId = run.id;
    event.turnIndex = this.turnIndex;
    event.timestamp = Date.now();
    const wait = this.hub.publish(event);
    if (observers.length > 0) {
      const context = this.hookContext(run);
      for (const hook of observers) {
        try {
          hook.handle(event, context);
        } catch (error) {
          if (isProgrammingError(error)) throw error;
          this.options.logger.warn(
            `hook ${hook.name ?? 'OnStreamEventHook'} threw; ignored`,
            this.redaction.errorForLog(error),
          );
        }
      }
    }
    return wait;
  }

  hookContext(run: RunState): HookContext {
    return {
      sessionId: this.sessionId,
      runId: run.id,
      turnIndex: this.turnIndex,
      signal: run.signal,
      model: this.options.model,
    };
  }

  /**
   * Runs a deciding phase; a decision is announced (HookFired) and traced (`hook.<name>`). Synchronous
   * while the phase's hooks are (none, or the permission policy's ALLOW), a promise otherwise.
   */
  decide<P extends DecidingPhase>(
    run: RunState,
    phase: P,
    invoke: (hook: HookOf<P>, context: HookContext) => HookReturn,
  ): HookDecision | undefined | Promise<HookDecision | undefined> {
    const hooks = this.hooks.of(phase);
    if (hooks.length === 0) return undefined;
    const trace = run.trace;
    run.decideEnvironment ??= {
      logger: this.options.logger,
      redactForLog: this.#redactForLog,
      clock: trace ? () => trace.now() : undefined,
    };
    const decision = decide(hooks, phase, this.hookContext(run), invoke, run.decideEnvironment);
    if (decision instanceof Promise) return decision.then((settled) => this.#decided(run, phase, settled));
    return this.#decided(run, phase, decision);
  }

  #decided(
    run: RunState,
    phase: DecidingPhase,
    decision: HookDecision | undefined,
  ): HookDecision | undefined {
    this.throwIfFatal();
    if (decision) {
      decision = this.#redactedDecision(decision);
      run.trace
        ?.span(hookSpanKind(decision.hookName), decision.startTime)
        .attribute('phase', phaseName(phase))
        .attribute('outcome', decision.outcome.type)
        .end();
      this.emit(run, {
        type: 'HookFired',
        hookName: decision.hookName,
        phase: phaseName(phase),
        outcomeKind: decision.outcome.type,
      });
    }
    return decision;
  }

  /**
   * A hook's Block reason and Stop text leave the session (events, results, traces): redacted like
   * everything else it emits. Inject and MutateText are user turns, MutateArgs and MutateHistory what
   * the tool and the model see, so those stay as written (tool events redact arguments themselves).
   */
  #redactedDecision(decision: HookDecision): HookDecision {
    const outcome = decision.outcome;
    if (outcome.type === 'Block') {
      const reason = this.redaction.text(outcome.reason);
      return reason === outcome.reason ? decision : { ...decision, outcome: { type: 'Block', reason } };
    }
    if (outcome.type === 'Stop') {
      const result = this.redaction.text(outcome.result);
      return result === outcome.result ? decision : { ...decision, outcome: { type: 'Stop', result } };
    }
    return decision;
  }

  /** Asks the user on behalf of the run in progress; QuestionAsked is emitted once the question is pending. */
  ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionResponse> {
    const run = this.current;
    if (!run) return Promise.reject(new InvalidArgumentError('no run is in progress to ask for'));
    const resumed = takeResumeAnswer(run, request);
    if (resumed) return Promise.resolve(resumed);
    const toolCallId = run.activeCallId;
    const persistence = this.persistence;
    const announce = (): Promise<void> => this.emitControl(run, { type: 'QuestionAsked', request });
    return this.questions.ask(request, {
      runId: run.id,
      signal,
      // A stored question is durable before anyone can see it, so a restart never loses one it showed.
      announce: persistence
        ? () => {
            persistence.note({ kind: 'question', request, ...(toolCallId ? { toolCallId } : {}) });
            return persistence.flush(this.history).then(announce);
          }
        : announce,
    });
  }

  /**
   * Records an unexpected programming error. The first one ends the session: the run in progress is
   * cancelled with it and the session closes; later ones are logged.
   */
  raiseFatal(error: unknown): void {
    if (this.fatal) {
      if (this.fatal.error !== error) {
        this.options.logger.error('further unexpected error (suppressed)', this.redaction.errorForLog(error));
      }
      return;
    }
    this.fatal = { error };
    const run = this.current;
    if (run) {
      run.controller.abort(error instanceof Error ? error : new Error('unexpected programming error'));
    } else {
      this.options.logger.error(
        'unexpected error outside any run; closing the session',
        this.redaction.errorForLog(error),
      );
    }
    this.onFatal();
  }

  throwIfFatal(): void {
    if (this.fatal) throw this.fatal.error;
  }
}

/**
 * The answer a resuming run carries, when this is the question it answers: asked for the same tool call
 * and of the same kind (permission or the model's own). Taken once.
 */
function takeResumeAnswer(run: RunState, request: QuestionRequest): QuestionResponse | undefined {
  const resume = run.resume;
  if (!resume || resume.toolCallId === undefined || resume.toolCallId !== run.activeCallId) return undefined;
  if (questionKind(resume.questionId) !== questionKind(request.questionId)) return undefined;
  run.resume = undefined;
  return resume.response;
}

function questionKind(questionId: string): string {
  return questionId.startsWith(PERMISSION_QUESTION_PREFIX) ? PERMISSION_QUESTION_PREFIX : 'other';
}
