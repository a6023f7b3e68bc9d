/**
 * The pull-based stream of one model turn. The source is opened on the first `next()`, so nothing is
 * sent before the caller pulls; `close()`/`return()` or the caller's AbortSignal abort the request at
 * any point without touching the model; a failed turn rejects `next()` with its error.
 */
import { abortReason, asAbortError, isAbortError } from '../common/abort.js';
import { type ModelChunk } from './model-chunk.js';

export interface ModelStream extends AsyncIterableIterator<ModelChunk> {
  /** Aborts the request if it started and ends the iteration. Idempotent; the model stays open. */
  close(): Promise<void>;
  /** Whether the first pull happened, i.e. the request may have been sent. */
  readonly started: boolean;
  /** Whether the stream reached its end, failed, or was closed. */
  readonly finished: boolean;
}

/**
 * What a source is opened with. `signal` aborts its request; it is created when first read, because an
 * AbortSignal costs microseconds and a source that ends on its own (an in-memory model) never needs one.
 */
export interface ChunkSourceContext {
  readonly signal: AbortSignal;
}

/** Opens the provider request; it must stop promptly once `context.signal` aborts. */
export type ChunkSource = (context: ChunkSourceContext) => AsyncIterable<ModelChunk>;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

// One reason for every close: a DOMException per close (with its stack) was a cost of every turn,
// since a caller that stops at MessageStop closes a stream whose source has not ended yet.
const CLOSED = new DOMException('model stream closed', 'AbortError');

class LazyModelStream implements ModelStream {
  readonly #open: ChunkSource;
  readonly #callerSignal: AbortSignal | undefined;
  /** Created on the source's first read of its signal. */
  #controller: AbortController | undefined;
  /** Set once the stream is aborted (the reason also aborts a controller created later). */
  #abortReason: unknown;
  #aborted = false;
  readonly #context: ChunkSourceContext;
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
    this.#context = Object.defineProperty({} as ChunkSourceContext, 'signal', {
      enumerable: true,
      get: (): AbortSignal => this.#sourceSignal(),
    });
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
    this.#source ??= this.#open(this.#context)[Symbol.asyncIterator]();
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

  #sourceSignal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  /** Aborts the source's signal (if it took one) and rejects the pulls in flight with the reason. */
  #abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    if (this.#pulls.size === 0) return;
    const error = asAbortError(reason);
    for (const reject of this.#pulls) reject(error);
  }

  /** The source's next chunk, or the abort reason as soon as the stream is aborted. */
  #pull(source: AsyncIterator<ModelChunk>): Promise<IteratorResult<ModelChunk>> {
    if (this.#aborted) return Promise.reject(asAbortError(this.#abortReason));
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
