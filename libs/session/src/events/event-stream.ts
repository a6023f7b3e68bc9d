/**
 * One reader's view of a session's events, read with `for await`. Its buffer holds `capacity` events:
 * ranges of the session's shared EventLog plus control events handed to it directly. Routine events are
 * judged lazily, in publish order, whenever the reader or the hub looks: while the buffer has room they
 * are in it, once it is full they are missed — exactly as if each had been offered on publish, since the
 * buffer only empties when its reader reads. A control event waits for room up to `controlWaitMs`, then
 * is missed too.
 *
 * A reader that keeps up — it read since the hub last yielded, or it is waiting in `next()` — is
 * *active*: when its buffer fills, the hub has the loop yield to the event loop at its next step so the
 * reader can drain, and meanwhile it may hold up to `ACTIVE_MARGIN` events more, what the loop emits
 * between two of its steps. A reader that read nothing during a yield loses that status, so a stalled
 * one costs the loop at most one yield. The stream ends when its reader closes it (`return`, `close`,
 * `using`), when its signal aborts, or when the session closed and the buffer is drained.
 */
import { type SessionLogger } from '../logger.js';
import { type QueryEvent } from '../query-event.js';
import { type EventLog } from './event-log.js';

export const DEFAULT_EVENT_BUFFER = 256;
export const CONTROL_EVENT_WAIT_MS = 30_000;
/**
 * Events an active reader may hold beyond its capacity until the loop reaches its next yield point; the
 * loop emits fewer than a dozen between two of them, and at least its own capacity is allowed.
 */
export const ACTIVE_MARGIN = 32;

interface ControlWaiter {
  readonly event: QueryEvent;
  readonly resolve: () => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** Log positions [from, to) this reader accepted and has not read yet. */
interface LogRange {
  from: number;
  readonly to: number;
}

type BufferItem = QueryEvent | LogRange;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

export interface EventStreamConfig {
  readonly capacity: number;
  readonly controlWaitMs: number;
  readonly logger: SessionLogger;
  readonly log: EventLog;
  readonly onClose: () => void;
  /** The reader became active (see the class comment): the hub starts watching its fill. */
  readonly onActive: () => void;
}

function isRange(item: BufferItem): item is LogRange {
  return 'from' in item;
}

export class EventStream
  implements AsyncIterableIterator<QueryEvent, undefined>, Disposable, AsyncDisposable
{
  readonly #config: EventStreamConfig;
  readonly #log: EventLog;
  /** The buffer, oldest first; `#size` counts events (a range counts each of its positions). */
  #items: BufferItem[] = [];
  #size = 0;
  /** Log positions below this one have been judged (accepted or missed). */
  #settled: number;
  readonly #waiters: ControlWaiter[] = [];
  readonly #pulls: ((result: IteratorResult<QueryEvent, undefined>) => void)[] = [];
  /** No further event will be offered (the session closed). */
  #ended = false;
  /** The reader gave up the stream. */
  #closed = false;
  #missed = 0;
  /** Missing routine events since the buffer was last read. */
  #inGap = false;
  /** Read since the hub's last yield, or waiting in next(). */
  #active = false;
  readonly #activeLimit: number;

  constructor(config: EventStreamConfig) {
    this.#config = config;
    this.#log = config.log;
    this.#settled = config.log.head;
    this.#activeLimit = config.capacity + Math.max(config.capacity, ACTIVE_MARGIN);
  }

  /** The log position at which this reader's buffer is full (its capacity, not the active margin). */
  fillPosition(): number {
    this.settle();
    return this.#waiters.length > 0 ? this.#settled : this.#settled + this.#config.capacity - this.#size;
  }

  /** The hub yielded: judge what was published while active, then wait to be seen reading again. */
  deactivate(): void {
    this.settle();
    this.#active = false;
  }

  /** Events this reader missed because its buffer was full. */
  get missed(): number {
    this.settle();
    return this.#missed;
  }

  /** Events buffered and not yet read. */
  get buffered(): number {
    this.settle();
    return this.#size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Judges the routine events published since the last look: the first ones that fit, the rest missed. */
  settle(): void {
    const head = this.#log.head;
    if (this.#settled >= head) return;
    if (this.#closed || this.#ended) {
      this.#settled = head;
      return;
    }
    const limit = this.#active ? this.#activeLimit : this.#config.capacity;
    const room = this.#waiters.length === 0 ? limit - this.#size : 0;
    const accepted = Math.max(0, Math.min(room, head - this.#settled));
    if (accepted > 0) {
      this.#acceptRange(this.#settled, this.#settled + accepted);
      this.#settled += accepted;
    }
    const missed = head - this.#settled;
    if (missed === 0) return;
    // Logged once per gap, not per event: a stalled reader would otherwise cost a string per event.
    if (!this.#inGap) {
      this.#inGap = true;
      const first = this.#log.at(this.#settled);
      this.#config.logger.debug(`event reader full: missing events from ${first.type} of run ${first.runId}`);
    }
    this.#missed += missed;
    this.#settled = head;
  }

  /**
   * Offers a control event: the routine events before it are judged first, then it goes in if there is
   * room, else it waits for room up to `controlWaitMs` — the returned promise settles when it went in
   * or was dropped.
   */
  offerControl(event: QueryEvent): Promise<void> | undefined {
    if (this.#closed || this.#ended) return undefined;
    this.settle();
    if (this.#size < this.#config.capacity && this.#waiters.length === 0) {
      this.#items.push(event);
      this.#size += 1;
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

  /** Copies the buffered log ranges out, so the hub may clear the log. */
  detachFromLog(): void {
    this.settle();
    if (!this.#items.some(isRange)) return;
    const events: QueryEvent[] = [];
    for (const item of this.#items) {
      if (!isRange(item)) events.push(item);
      else
        for (let position = item.from; position < item.to; position += 1) events.push(this.#log.at(position));
    }
    this.#items = events;
  }

  /** New events may be there: hands them to pending reads. */
  wake(): void {
    if (this.#pulls.length === 0) return;
    this.settle();
    while (this.#pulls.length > 0 && this.#size > 0) {
      (this.#pulls.shift() as (result: IteratorResult<QueryEvent, undefined>) => void)({
        done: false,
        value: this.#read(),
      });
    }
    if (this.#closed || this.#ended) for (const pull of this.#pulls.splice(0)) pull(DONE);
  }

  next(): Promise<IteratorResult<QueryEvent, undefined>> {
    this.settle();
    if (this.#size > 0) {
      const value = this.#read();
      this.#markActive();
      return Promise.resolve({ done: false, value });
    }
    if (this.#closed || this.#ended) return Promise.resolve(DONE);
    const pull = new Promise<IteratorResult<QueryEvent, undefined>>((resolve) => this.#pulls.push(resolve));
    this.#markActive();
    return pull;
  }

  #markActive(): void {
    if (this.#active || this.#closed) return;
    this.#active = true;
    this.#config.onActive();
  }

  return(): Promise<IteratorResult<QueryEvent, undefined>> {
    this.close();
    return Promise.resolve(DONE);
  }

  /** The reader is done: buffered events are discarded and any waiting control event is released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#items = [];
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
    this.detachFromLog();
    this.#ended = true;
    this.#releaseWaiters();
    if (this.#size === 0) this.close();
    else this.wake();
  }

  #acceptRange(from: number, to: number): void {
    const last = this.#items[this.#items.length - 1];
    if (last !== undefined && isRange(last) && last.to === from) {
      this.#items[this.#items.length - 1] = { from: last.from, to };
    } else {
      this.#items.push({ from, to });
    }
    this.#size += to - from;
  }

  /** Takes the oldest buffered event; the room it frees goes to the oldest waiting control event. */
  #read(): QueryEvent {
    this.#inGap = false;
    const front = this.#items[0] as BufferItem;
    let event: QueryEvent;
    if (isRange(front)) {
      event = this.#log.at(front.from);
      front.from += 1;
      if (front.from === front.to) this.#items.shift();
    } else {
      event = front;
      this.#items.shift();
    }
    this.#size -= 1;
    this.#admitWaiter();
    if (this.#size === 0 && this.#ended) this.close();
    return event;
  }

  #admitWaiter(): void {
    const waiter = this.#waiters.shift();
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.#items.push(waiter.event);
    this.#size += 1;
    waiter.resolve();
  }

  #releaseWaiters(): void {
    for (const waiter of this.#waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
  }
}
