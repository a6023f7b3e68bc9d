/**
 * The questions a session is waiting on. `ask` registers one, announces it (QuestionAsked) and waits
 * for `answer` or for the asking run's signal; a run's end cancels whatever it left unanswered.
 *
 * A question restored from a session store is dormant: the run that asked it is gone, so nothing waits
 * on it; the session takes it back (`takeDormant`) when it is answered and resumes the asking call.
 */
import { abortReason } from '@helios/core';
import { UnknownQuestionError } from '../errors.js';
import { checkResponse, type QuestionRequest, type QuestionResponse } from './question.js';

/** Whom a question is for and how it is announced. */
export interface AskOptions {
  /** The asking run: its end cancels the question. */
  readonly runId: string;
  /** Ends the wait with its reason when it aborts. */
  readonly signal: AbortSignal;
  /** Emits QuestionAsked once the question is registered. */
  readonly announce: () => Promise<void>;
}

/** A question restored from the store, and the tool call it was asked for. */
export interface DormantQuestion {
  readonly request: QuestionRequest;
  readonly toolCallId?: string;
}

interface Pending {
  readonly request: QuestionRequest;
  readonly runId: string;
  readonly resolve: (response: QuestionResponse) => void;
  readonly reject: (error: Error) => void;
}

export class PendingQuestions {
  readonly #pending = new Map<string, Pending>();
  readonly #dormant = new Map<string, DormantQuestion>();
  /** Told of every question that stops pending (answered or cancelled); the session's store hears it. */
  onClosed: (questionId: string) => void = () => undefined;

  /**
   * Waits for the answer. `announce` emits QuestionAsked after the question is registered, so an answer
   * given by an event reader is never early; the wait ends with the signal's reason when it aborts.
   */
  ask(request: QuestionRequest, options: AskOptions): Promise<QuestionResponse> {
    const { runId, signal, announce } = options;
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const answered = new Promise<QuestionResponse>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.#pending.delete(request.questionId)) this.onClosed(request.questionId);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(request.questionId, {
        request,
        runId,
        resolve: (response) => {
          signal.removeEventListener('abort', onAbort);
          resolve(response);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
    });
    answered.catch(() => undefined); // observed below; never an unhandled rejection while announcing
    return announce().then(() => answered);
  }

  /** Resolves a pending question; UnknownQuestionError when none has this id, InvalidArgumentError for a bad response. */
  answer(questionId: string, response: QuestionResponse): void {
    const pending = this.#pending.get(questionId);
    if (!pending) throw new UnknownQuestionError(`no pending question with id ${JSON.stringify(questionId)}`);
    const checked = checkResponse(response);
    this.#pending.delete(questionId);
    this.onClosed(questionId);
    pending.resolve(checked);
  }

  list(): readonly QuestionRequest[] {
    const live = [...this.#pending.values()].map((pending) => pending.request);
    const dormant = [...this.#dormant.values()].map((question) => question.request);
    return Object.freeze([...dormant, ...live]);
  }

  restore(question: DormantQuestion): void {
    this.#dormant.set(question.request.questionId, question);
  }

  get hasDormant(): boolean {
    return this.#dormant.size > 0;
  }

  /** Removes a dormant question to resume it; undefined when `questionId` is not one. */
  takeDormant(questionId: string): DormantQuestion | undefined {
    const question = this.#dormant.get(questionId);
    if (question) {
      this.#dormant.delete(questionId);
      this.onClosed(questionId);
    }
    return question;
  }

  /** Closes every dormant question: the session went on without their answers. */
  dropDormant(): void {
    for (const id of [...this.#dormant.keys()]) this.takeDormant(id);
  }

  /** Cancels the questions a run left open. */
  cancelRun(runId: string, reason: Error): void {
    for (const [id, pending] of this.#pending) {
      if (pending.runId !== runId) continue;
      this.#pending.delete(id);
      this.onClosed(id);
      pending.reject(reason);
    }
  }
}
