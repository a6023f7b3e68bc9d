/**
 * The pull-based stream of one model turn. The source is opened on the first `next()`, so nothing is
 * sent before the caller pulls; `close()`/`return()` or the caller's AbortSignal abort the request at
 * any point without touching the model; a failed turn rejects `next()` with its error.
 */
import { abortReason, asAbortError, isAbortError } from '../common/abort.js';
import { type AbortSubscription, listenForAbort } from '../common/abort-fanout.js';
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

/** The context a source is opened with; its signal is made on first read. */
class SourceContext implements ChunkSourceContext {
  readonly #signal: () => AbortSignal;

  constructor(signal: () => AbortSignal) {
    this.#signal = signal;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }
}

interface Pull {
  readonly resolve: (result: IteratorResult<ModelChunk, undefined>) => void;
  readonly reject: (error: unknown) => void;
}

class LazyModelStream implements ModelStream {
  readonly #open: ChunkSource;
  readonly #callerSignal: AbortSignal | undefined;
  /** Created on the source's first read of its signal. */
  #controller: AbortController | undefined;
  /** Set once the stream is aborted (the reason also aborts a controller created later). */
  #abortReason: unknown;
  #aborted = false;
  readonly #context: ChunkSourceContext;
  #callerLink: AbortSubscription | undefined;
  #source: AsyncIterator<ModelChunk> | undefined;
  /** The pulls in flight, oldest first; `#abort` settles them all at once. */
  #pulls: Pull[] = [];
  #closed = false;
  #finished = false;
  #onFinish: (() => void) | undefined;

  constructor(open: ChunkSource, callerSignal: AbortSignal | undefined, onFinish?: () => void) {
    this.#open = open;
    this.#callerSignal = callerSignal;
    this.#onFinish = onFinish;
    this.#context = new SourceContext(() => this.#sourceSignal());
    if (callerSignal && !callerSignal.aborted) {
      this.#callerLink = listenForAbort(callerSignal, (reason) => this.#abort(reason));
    }
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

  /**
   * One promise per chunk, settled by the source or, at once, by an abort: a closed stream ends (done),
   * the caller's abort rejects with its reason, a source failure rejects with its error. Pulls are
   * queued in order (a caller may call next() before the previous one settled).
   */
  next(): Promise<IteratorResult<ModelChunk, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    if (this.#callerSignal?.aborted) {
      this.#finish();
      this.#abort(this.#callerSignal.reason);
      return Promise.reject(abortReason(this.#callerSignal));
    }
    const source = (this.#source ??= this.#open(this.#context)[Symbol.asyncIterator]());
    if (this.#aborted) return this.#failed(asAbortError(this.#abortReason));
    return new Promise((resolve, reject) => {
      this.#pulls.push({ resolve, reject });
      source.next().then(this.#onResult, this.#onError);
    });
  }

  /** The source answered the oldest pull still waiting (an aborted one was already settled). */
  readonly #onResult = (result: IteratorResult<ModelChunk>): void => {
    const pull = this.#pulls.shift();
    if (pull === undefined) return;
    if (result.done === true) {
      this.#finish();
      pull.resolve(DONE);
    } else pull.resolve(result);
  };

  readonly #onError = (error: unknown): void => {
    const pull = this.#pulls.shift();
    if (pull !== undefined) this.#settleFailed(pull, error);
  };

  #settleFailed(pull: Pull, error: unknown): void {
    this.#finish();
    if (this.#closed) pull.resolve(DONE);
    else pull.reject(error);
  }

  #failed(error: Error): Promise<IteratorResult<ModelChunk, undefined>> {
    this.#finish();
    return this.#closed ? Promise.resolve(DONE) : Promise.reject(error);
  }

  async return(): Promise<IteratorResult<ModelChunk, undefined>> {
    await this.close();
    return DONE;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const wasFinished = this.#finished;
    const inFlight = this.#pulls.length > 0;
    this.#finish();
    if (wasFinished && !inFlight) return;
    this.#abort(CLOSED);
    const ending = this.#source?.return?.();
    if (ending === undefined) return;
    // A pull still in flight holds the source; its own abort ends it, so do not wait on it here.
    if (inFlight) {
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
    if (this.#pulls.length === 0) return;
    const error = asAbortError(reason);
    const pulls = this.#pulls;
    this.#pulls = []; // the source's late answers to these find nobody waiting
    for (const pull of pulls) this.#settleFailed(pull, error);
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#callerLink?.cancel();
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
