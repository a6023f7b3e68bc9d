/**
 * A session's retained events for its HTTP readers: each QueryEvent numbered (the SSE `id:`), turned
 * into its SSE frame once (wire form, one line of JSON) and kept in a window bounded by count and bytes.
 * Readers hold a cursor (the last id they sent); one that falls behind the window learns so as a gap.
 */
import { type QueryEvent, toWire } from '@helios/session';

export interface RetainedEvent {
  readonly seq: number;
  readonly type: QueryEvent['type'];
  /** `id: …\nevent: …\ndata: …\n\n`, ready to write. */
  readonly frame: string;
}

/** What follows a reader's cursor: the next retained event, or the ids it can no longer have. */
export type NextEvent =
  | { readonly kind: 'event'; readonly event: RetainedEvent }
  | { readonly kind: 'gap'; readonly firstMissed: number; readonly lastMissed: number };

export interface RetentionLimits {
  readonly retainedEvents: number;
  readonly retainedEventBytes: number;
}

export class RetainedEventLog {
  #events: RetainedEvent[] = [];
  /** Index of the oldest retained event in `#events` (dropped ones are compacted away lazily). */
  #start = 0;
  #bytes = 0;
  #head = 0;

  constructor(private readonly limits: RetentionLimits) {}

  /** The id of the newest event (0 before the first). */
  get head(): number {
    return this.#head;
  }

  /** The id of the oldest event still retained (head + 1 when none is). */
  get oldest(): number {
    return this.#start < this.#events.length
      ? (this.#events[this.#start] as RetainedEvent).seq
      : this.#head + 1;
  }

  append(event: QueryEvent): RetainedEvent {
    const seq = this.#head + 1;
    const frame = `id: ${seq}\nevent: ${event.type}\ndata: ${JSON.stringify(toWire(event))}\n\n`;
    const retained = Object.freeze({ seq, type: event.type, frame });
    this.#head = seq;
    this.#events.push(retained);
    this.#bytes += frame.length;
    this.#evict();
    return retained;
  }

  /** What a reader whose last sent id is `cursor` gets next; undefined when it is up to date. */
  after(cursor: number): NextEvent | undefined {
    if (cursor >= this.#head) return undefined;
    const oldest = this.oldest;
    if (cursor + 1 < oldest) return { kind: 'gap', firstMissed: cursor + 1, lastMissed: oldest - 1 };
    const event = this.#events[this.#start + (cursor + 1 - oldest)] as RetainedEvent;
    return { kind: 'event', event };
  }

  #evict(): void {
    const { retainedEvents, retainedEventBytes } = this.limits;
    // The newest event always stays, however large, and does not push the others out by its size alone
    // (a run's RunEnded repeats its whole answer): the byte bound is on the events before it.
    const newest = (this.#events[this.#events.length - 1] as RetainedEvent).frame.length;
    while (this.#events.length - this.#start > 1) {
      const count = this.#events.length - this.#start;
      if (count <= retainedEvents && this.#bytes - newest <= retainedEventBytes) break;
      this.#bytes -= (this.#events[this.#start] as RetainedEvent).frame.length;
      this.#start += 1;
    }
    if (this.#start > 1_024 && this.#start * 2 > this.#events.length) {
      this.#events = this.#events.slice(this.#start);
      this.#start = 0;
    }
  }
}

/** The frame telling a reader which ids it missed; its id moves the reader's Last-Event-ID past them. */
export function gapFrame(sessionId: string, firstMissed: number, lastMissed: number): string {
  const data = { type: 'Gap', sessionId, firstMissed, lastMissed, missed: lastMissed - firstMissed + 1 };
  return `id: ${lastMissed}\nevent: Gap\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The synthetic first event of every stream: the subscription is live. */
export const READY_FRAME = 'event: Ready\ndata: {}\n\n';
