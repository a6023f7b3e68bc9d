/**
 * One reader's view of a session's events: its own bounded buffer, read with `for await`. A routine
 * event that finds the buffer full is missed at once; a control event waits for room up to
 * `controlWaitMs`, then is missed too. The stream ends when its reader closes it (`return`, `close`,
 * `using`), when its signal aborts, or when the session closed and the buffer is drained.
 */
import { type QueryEvent } from '../query-event.js';
import { type SessionLogger } from '../logger.js';

export const DEFAULT_EVENT_BUFFER = 256;
export const CONTROL_EVENT_WAIT_MS = 30_000;

interface ControlWaiter {
  readonly event: QueryEvent;
  readonly resolve: () => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

export interface EventStreamConfig {
  readonly capacity: number;
  readonly controlWaitMs: number;
  readonly logger: SessionLogger;
  readonly onClose: () => void;
}

export class EventStream
  implements AsyncIterableIterator<QueryEvent, undefined>, Disposable, AsyncDisposable
{
  readonly #config: EventStreamConfig;
  readonly #ring: (QueryEvent | undefined)[];
  #head = 0;
  #size = 0;
  readonly #waiters: ControlWaiter[] = [];
  readonly #pulls: ((result: IteratorResult<QueryEvent, undefined>) => void)[] = [];
  /** No further event will be offered (the session closed). */
  #ended = false;
  /** The reader gave up the stream. */
  #closed = false;
  #missed = 0;
  /** Missing routine events since the buffer was last read. */
  #inGap = false;

  constructor(config: EventStreamConfig) {
    this.#config = config;
    this.#ring = new Array<QueryEvent | undefined>(config.capacity);
  }

  /** Events this reader missed because its buffer was full. */
  get missed(): number {
    return this.#missed;
  }

  /** Events buffered and not yet read. */
  get buffered(): number {
    return this.#size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Offers a routine event (returns undefined) or a control event (returns a wait when the buffer is full). */
  offer(event: QueryEvent, control: boolean): Promise<void> | undefined {
    if (this.#closed || this.#ended) return undefined;
    const pull = this.#pulls.shift();
    if (pull) {
      pull({ done: false, value: event });
      return undefined;
    }
    if (this.#size < this.#config.capacity && this.#waiters.length === 0) {
      this.#push(event);
      return undefined;
    }
    if (!control) {
      // Logged once per gap, not per event: a stalled reader would otherwise cost a string per event.
      if (!this.#inGap) {
        this.#inGap = true;
        this.#config.logger.debug(
          `event reader full: missing events from ${event.type} of run ${event.runId}`,
        );
      }
      this.#missed += 1;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        const index = this.#waiters.findIndex((waiter) => waiter.timer === timer);
        if (index >= 0) this.#waiters.splice(index, 1);
        this.#missed += 1;
        this.#config.logger.warn(
          `event reader full for ${this.#config.controlWaitMs} ms: dropped ${event.type} of run ${event.runId}`,
        );
        resolve();
      }, this.#config.controlWaitMs);
      this.#waiters.push({ event, resolve, timer });
    });
  }

  next(): Promise<IteratorResult<QueryEvent, undefined>> {
    if (this.#size > 0) {
      this.#inGap = false;
      const event = this.#take();
      this.#admitWaiter();
      return Promise.resolve({ done: false, value: event });
    }
    if (this.#closed || this.#ended) return Promise.resolve(DONE);
    return new Promise((resolve) => this.#pulls.push(resolve));
  }

  return(): Promise<IteratorResult<QueryEvent, undefined>> {
    this.close();
    return Promise.resolve(DONE);
  }

  /** The reader is done: buffered events are discarded and any waiting control event is released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ring.fill(undefined);
    this.#size = 0;
    this.#releaseWaiters();
    for (const pull of this.#pulls.splice(0)) pull(DONE);
    this.#config.onClose();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  /** The session closed: nothing more comes; the reader still drains what is buffered. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#releaseWaiters();
    for (const pull of this.#pulls.splice(0)) pull(DONE);
    if (this.#size === 0) this.close();
  }

  #push(event: QueryEvent): void {
    this.#ring[(this.#head + this.#size) % this.#config.capacity] = event;
    this.#size += 1;
  }

  #take(): QueryEvent {
    const event = this.#ring[this.#head] as QueryEvent;
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#config.capacity;
    this.#size -= 1;
    if (this.#size === 0 && this.#ended) this.close();
    return event;
  }

  /** Room appeared: the oldest waiting control event takes it. */
  #admitWaiter(): void {
    const waiter = this.#waiters.shift();
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.#push(waiter.event);
    waiter.resolve();
  }

  #releaseWaiters(): void {
    for (const waiter of this.#waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
  }
}
