/**
 * Fans a session's events out to its readers. A routine event is appended once to a shared EventLog
 * and never waits: each reader judges it lazily against its own buffer. A control event is offered to
 * every reader and resolves once each full reader took it or dropped it (≤ 30 s each, in parallel), so a
 * run settles only after its events are in each buffer or missed.
 *
 * Readers are woken through an RxJS Subject on the macrotask queue, once per batch of events: the loop
 * never runs a reader's code between its own steps, so a thousand readers cost it what one costs. A
 * loop that never yields (an in-memory model, a cached answer, synchronous tools) would then run ahead
 * of its readers; so the hub watches the readers that keep up (active: they read since its last yield,
 * or wait in next()) and, once one of their buffers is full, `needsYield` asks the loop to yield one
 * macrotask at its next step, in which the woken readers drain. The check per event is one comparison
 * with the lowest fill position of the active readers; only reaching it costs a pass over them. A
 * reader that read nothing during a yield is no longer active, so a stalled reader never holds the
 * loop back: it just misses what does not fit, as before.
 */
import { Subject, type Subscription } from 'rxjs';
import { type SessionLogger } from '../logger.js';
import { isControlEvent, type QueryEvent } from '../query-event.js';
import { EventLog } from './event-log.js';
import { EventStream } from './event-stream.js';

export interface EventHubConfig {
  readonly capacity: number;
  readonly controlWaitMs: number;
  readonly logger: SessionLogger;
}

/** Log length at which the hub has every reader copy out what it still needs, then clears the log. */
const TRIM_AT = 4_096;

// Taken at load: installing fake timers in a test must not stop readers from being woken.
const scheduleMacrotask = globalThis.setImmediate;

export class EventHub {
  readonly #config: EventHubConfig;
  readonly #log = new EventLog();
  readonly #wake = new Subject<void>();
  readonly #streams = new Set<EventStream>();
  #wakeScheduled = false;
  #closed = false;
  /** Readers that kept up since the last yield. */
  readonly #active = new Set<EventStream>();
  /** Lowest log position at which an active reader may be full (a stale value is only ever too low). */
  #yieldAt = Number.POSITIVE_INFINITY;

  constructor(config: EventHubConfig) {
    this.#config = config;
  }

  get readerCount(): number {
    return this.#streams.size;
  }

  /** A new reader, attached before it is returned; after close it is already ended. */
  open(signal?: AbortSignal): EventStream {
    let subscription: Subscription | undefined = undefined;
    const stream = new EventStream({
      ...this.#config,
      log: this.#log,
      onActive: () => this.#watch(stream),
      onClose: () => {
        this.#streams.delete(stream);
        this.#active.delete(stream);
        subscription?.unsubscribe();
        if (this.#streams.size === 0) this.#log.clear();
      },
    });
    if (this.#closed || signal?.aborted) {
      stream.end();
      return stream;
    }
    subscription = this.#wake.subscribe(() => stream.wake());
    this.#streams.add(stream);
    signal?.addEventListener('abort', () => stream.close(), { once: true });
    return stream;
  }

  /** Routine events return undefined at once; control events return the readers' bounded waits. */
  publish(event: QueryEvent): Promise<void> | undefined {
    if (this.#streams.size === 0) return undefined;
    this.#scheduleWake();
    if (!isControlEvent(event.type)) {
      this.#log.append(event);
      if (this.#log.length >= TRIM_AT) this.#trim();
      return undefined;
    }
    const waits: Promise<void>[] = [];
    for (const stream of this.#streams) {
      const wait = stream.offerControl(event);
      if (wait) waits.push(wait);
    }
    if (waits.length === 0) return undefined;
    return Promise.all(waits).then(() => undefined);
  }

  /** An active reader's buffer may be full: the loop should call `yieldToReaders` at its next step. */
  get needsYield(): boolean {
    return this.#log.head >= this.#yieldAt;
  }

  /**
   * Resolves after one macrotask in which woken readers drain, when an active reader's buffer is full;
   * undefined (no wait) when none is. Every active reader then has to read again to stay active.
   */
  yieldToReaders(): Promise<void> | undefined {
    const head = this.#log.head;
    let full = false;
    let next = Number.POSITIVE_INFINITY;
    for (const stream of this.#active) {
      const fill = stream.fillPosition();
      if (fill <= head) full = true;
      else if (fill < next) next = fill;
    }
    if (!full) {
      this.#yieldAt = next;
      return undefined;
    }
    this.#yieldAt = Number.POSITIVE_INFINITY;
    for (const stream of this.#active) stream.deactivate();
    this.#active.clear();
    this.#scheduleWake();
    return new Promise((resolve) => scheduleMacrotask(resolve));
  }

  /** Ends every stream; readers drain their buffers, waiting control events are released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of [...this.#streams]) stream.end();
    this.#log.clear();
    this.#wake.complete();
  }

  #watch(stream: EventStream): void {
    this.#active.add(stream);
    const fill = stream.fillPosition();
    if (fill < this.#yieldAt) this.#yieldAt = fill;
  }

  #scheduleWake(): void {
    if (this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    scheduleMacrotask(() => {
      this.#wakeScheduled = false;
      this.#wake.next();
    });
  }

  /** Every reader copies out its unread log ranges (at most its capacity), then the log starts afresh. */
  #trim(): void {
    for (const stream of this.#streams) stream.detachFromLog();
    this.#log.clear();
  }
}
