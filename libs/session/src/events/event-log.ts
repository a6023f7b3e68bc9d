/**
 * A session's routine events, appended once for all readers. A reader's buffer refers to ranges of this
 * log instead of holding a copy, so publishing costs the same with one reader or a thousand. Positions
 * are absolute sequence numbers; `clear` drops what every reader has settled and copied out.
 */
import { type QueryEvent } from '../query-event.js';

export class EventLog {
  #events: QueryEvent[] = [];
  /** Sequence number of `#events[0]`. */
  #base = 0;

  /** The sequence number the next event will get. */
  get head(): number {
    return this.#base + this.#events.length;
  }

  /** Events held (what the hub compares against its trim threshold). */
  get length(): number {
    return this.#events.length;
  }

  append(event: QueryEvent): void {
    this.#events.push(event);
  }

  at(sequence: number): QueryEvent {
    return this.#events[sequence - this.#base] as QueryEvent;
  }

  /** Forgets every event; callers guarantee no reader refers to one any more. */
  clear(): void {
    this.#base = this.head;
    this.#events = [];
  }
}
