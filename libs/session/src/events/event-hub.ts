/**
 * Fans a session's events out to its readers through an RxJS Subject. Publishing never waits on a
 * routine event; a control event resolves once every full reader took it or dropped it (≤ 30 s each,
 * in parallel), so a run settles only after its events are in each buffer or missed.
 */
import { Subject } from 'rxjs';
import { type SessionLogger } from '../logger.js';
import { isControlEvent, type QueryEvent } from '../query-event.js';
import { EventStream } from './event-stream.js';

interface Delivery {
  readonly event: QueryEvent;
  readonly control: boolean;
  /** Control deliveries collect the waits of full readers here. */
  readonly waits: Promise<void>[];
}

export interface EventHubConfig {
  readonly capacity: number;
  readonly controlWaitMs: number;
  readonly logger: SessionLogger;
}

const NO_WAITS: Promise<void>[] = [];

export class EventHub {
  readonly #config: EventHubConfig;
  readonly #subject = new Subject<Delivery>();
  readonly #streams = new Set<EventStream>();
  #closed = false;

  constructor(config: EventHubConfig) {
    this.#config = config;
  }

  get readerCount(): number {
    return this.#streams.size;
  }

  /** A new reader, attached before it is returned; after close it is already ended. */
  open(signal?: AbortSignal): EventStream {
    let unsubscribe = (): void => undefined;
    const stream = new EventStream({
      ...this.#config,
      onClose: () => {
        this.#streams.delete(stream);
        unsubscribe();
      },
    });
    if (this.#closed || signal?.aborted) {
      stream.end();
      return stream;
    }
    const subscription = this.#subject.subscribe((delivery) => {
      const wait = stream.offer(delivery.event, delivery.control);
      if (wait) delivery.waits.push(wait);
    });
    unsubscribe = () => subscription.unsubscribe();
    this.#streams.add(stream);
    signal?.addEventListener('abort', () => stream.close(), { once: true });
    return stream;
  }

  /** Routine events return undefined at once; control events return the readers' bounded waits. */
  publish(event: QueryEvent): Promise<void> | undefined {
    if (!this.#subject.observed) return undefined;
    const control = isControlEvent(event.type);
    const delivery: Delivery = { event, control, waits: control ? [] : NO_WAITS };
    this.#subject.next(delivery);
    if (delivery.waits.length === 0) return undefined;
    return Promise.all(delivery.waits).then(() => undefined);
  }

  /** Ends every stream; readers drain their buffers, waiting control events are released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of [...this.#streams]) stream.end();
    this.#subject.complete();
  }
}
