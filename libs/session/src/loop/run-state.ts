/**
 * One run: from the message that starts it to its terminal. Holds the run's own steering queue, its
 * cancellation, its per-run counters (turns, usage, cost) and the promise `send` hands out.
 */
import {
  CostEstimate,
  newId,
  type OutputSchema,
  type TraceRecorder,
  Usage,
  type UserMessage,
} from '@helios/core';
import { RunCancelledError } from '../errors.js';
import { type DecideEnvironment } from '../hooks/hook-runner.js';
import { type IdleWatch } from './idle-watch.js';
import { type ResultMessage } from '../result-message.js';
import { type QuestionResponse } from '../questions/question.js';

/** A restored question's answer: the run resumes the call it was asked for and hands it this answer. */
export interface ResumeAnswer {
  readonly questionId: string;
  readonly toolCallId: string | undefined;
  readonly response: QuestionResponse;
}

export class RunState {
  readonly id = `run-${newId()}`;
  readonly queue: UserMessage[] = [];
  readonly controller = new AbortController();
  readonly promise: Promise<ResultMessage>;
  /** Resolves when the run's work is over, however it ended (the promise may reject). */
  readonly done: Promise<void>;
  startedAt = 0;
  turns = 0;
  usage: Usage = Usage.ZERO;
  cost: CostEstimate = CostEstimate.ZERO;
  schema: OutputSchema<unknown> | undefined;
  trace: TraceRecorder | undefined;
  started = false;
  /** Past its terminal: new messages go to the next run. */
  ending = false;
  wallClockTimer: ReturnType<typeof setTimeout> | undefined;
  /** The stream idle ceiling, made at the run's first model call. */
  idleWatch: IdleWatch | undefined;
  /** Set on a run that resumes a tool round a restored question interrupted; taken by the first matching ask. */
  resume: ResumeAnswer | undefined;
  /** The tool call whose hooks or tool are running: a question asked now is asked for it. */
  activeCallId: string | undefined;
  /** What hook decisions of this run log and time with; made on the run's first decision. */
  decideEnvironment: DecideEnvironment | undefined;
  #resolve!: (result: ResultMessage) => void;
  #reject!: (error: unknown) => void;
  #finish!: () => void;

  constructor() {
    this.promise = new Promise<ResultMessage>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.done = new Promise<void>((resolve) => {
      this.#finish = resolve;
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(reason: string, wallClock = false): void {
    if (!this.controller.signal.aborted) this.controller.abort(new RunCancelledError(reason, wallClock));
  }

  /** The cancel reason, when the run's signal fired. */
  cancelReason(): string {
    const reason: unknown = this.controller.signal.reason;
    if (reason instanceof RunCancelledError) return reason.reason;
    return reason instanceof Error ? reason.message : String(reason);
  }

  wallClockFired(): boolean {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof RunCancelledError && reason.wallClock;
  }

  addUsage(usage: Usage, cost: CostEstimate): void {
    this.usage = Usage.plus(this.usage, usage);
    this.cost = this.cost.plus(cost);
  }

  settle(result: ResultMessage): void {
    this.#resolve(result);
    this.#finish();
  }

  fail(error: unknown): void {
    this.#reject(error);
    this.#finish();
  }
}
