/**
 * The pull-based stream of one model turn. The source is opened on the first `next()`, so nothing is
 * sent before the caller pulls; `close()`/`return()` or the caller's AbortSignal abort the request at
 * any point without touching the model; a failed turn rejects `next()` with its error.
 */
import { abortReason, isAbortError } from '../common/abort.js';
import { type ModelChunk } from './model-chunk.js';

export interface ModelStream extends AsyncIterableIterator<ModelChunk> {
  /** Aborts the request if it started and ends the iteration. Idempotent; the model stays open. */
  close(): Promise<void>;
  /** Whether the first pull happened, i.e. the request may have been sent. */
  readonly started: boolean;
  /** Whether the stream reached its end, failed, or was closed. */
  readonly finished: boolean;
}

/** Opens the provider request; it must stop promptly once `signal` aborts. */
export type ChunkSource = (signal: AbortSignal) => AsyncIterable<ModelChunk>;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

// One reason for every close: a DOMException per close (with its stack) was a cost of every turn,
// since a caller that stops at MessageStop closes a stream whose source has not ended yet.
const CLOSED = new DOMException('model stream closed', 'AbortError');

class LazyModelStream implements ModelStream {
  readonly #open: ChunkSource;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #controller = new AbortController();
  readonly #onCallerAbort = (): void => this.#abort(this.#callerSignal?.reason);
  #source: AsyncIterator<ModelChunk> | undefined;
  /** The pulls in flight, rejected by `#abort` (a listener per chunk was a cost of every turn). */
  readonly #pulls = new Set<(reason: Error) => void>();
  #pending = 0;
  #closed = false;
  #finished = false;
  #onFinish: (() => void) | undefined;

  constructor(open: ChunkSource, callerSignal: AbortSignal | undefined, onFinish?: () => void) {
    this.#open = open;
    this.#callerSignal = callerSignal;
    this.#onFinish = onFinish;
    callerSignal?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get started(): boolean {
    return this.#source !== undefined;
  }

  get finished(): boolean {
    return this.#finished;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ModelChunk, undefined>> {
    if (this.#finished) return DONE;
    if (this.#callerSignal?.aborted) {
      this.#finish();
      this.#abort(this.#callerSignal.reason);
      throw abortReason(this.#callerSignal);
    }
    this.#source ??= this.#open(this.#controller.signal)[Symbol.asyncIterator]();
    this.#pending += 1;
    try {
      const result = await this.#pull(this.#source);
      if (result.done === true) {
        this.#finish();
        return DONE;
      }
      return result;
    } catch (error) {
      this.#finish();
      if (this.#closed) return DONE;
      throw error;
    } finally {
      this.#pending -= 1;
    }
  }

  async return(): Promise<IteratorResult<ModelChunk, undefined>> {
    await this.close();
    return DONE;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const wasFinished = this.#finished;
    this.#finish();
    if (wasFinished && this.#pending === 0) return;
    this.#abort(CLOSED);
    const ending = this.#source?.return?.();
    if (ending === undefined) return;
    // A pull still in flight holds the source; its own abort ends it, so do not wait on it here.
    if (this.#pending > 0) {
      ending.catch(() => undefined);
      return;
    }
    await ending.catch((error: unknown) => {
      if (!isAbortError(error)) throw error;
    });
  }

  /** Aborts the source's signal and rejects the pulls in flight with its reason. */
  #abort(reason: unknown): void {
    const signal = this.#controller.signal;
    if (signal.aborted) return;
    this.#controller.abort(reason);
    for (const reject of this.#pulls) reject(abortReason(signal));
  }

  /** The source's next chunk, or the abort reason as soon as the stream is aborted. */
  #pull(source: AsyncIterator<ModelChunk>): Promise<IteratorResult<ModelChunk>> {
    const signal = this.#controller.signal;
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      this.#pulls.add(reject);
      source.next().then(
        (result) => {
          this.#pulls.delete(reject);
          resolve(result);
        },
        (error: unknown) => {
          this.#pulls.delete(reject);
          reject(error as Error);
        },
      );
    });
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#onFinish?.();
    this.#onFinish = undefined;
  }
}

export function createModelStream(
  open: ChunkSource,
  signal?: AbortSignal,
  onFinish?: () => void,
): ModelStream {
  return new LazyModelStream(open, signal, onFinish);
}
