/**
 * The questions a session is waiting on. `ask` registers one, announces it (QuestionAsked) and waits
 * for `answer` or for the asking run's signal; a run's end cancels whatever it left unanswered.
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

interface Pending {
  readonly request: QuestionRequest;
  readonly runId: string;
  readonly resolve: (response: QuestionResponse) => void;
  readonly reject: (error: Error) => void;
}

export class PendingQuestions {
  readonly #pending = new Map<string, Pending>();

  /**
   * Waits for the answer. `announce` emits QuestionAsked after the question is registered, so an answer
   * given by an event reader is never early; the wait ends with the signal's reason when it aborts.
   */
  ask(request: QuestionRequest, options: AskOptions): Promise<QuestionResponse> {
    const { runId, signal, announce } = options;
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const answered = new Promise<QuestionResponse>((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(request.questionId);
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
    pending.resolve(checked);
  }

  list(): readonly QuestionRequest[] {
    return Object.freeze([...this.#pending.values()].map((pending) => pending.request));
  }

  /** Cancels the questions a run left open. */
  cancelRun(runId: string, reason: Error): void {
    for (const [id, pending] of this.#pending) {
      if (pending.runId !== runId) continue;
      this.#pending.delete(id);
      pending.reject(reason);
    }
  }
}
