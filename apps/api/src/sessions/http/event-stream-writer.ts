/**
 * One `GET /v1/sessions/{id}/events` response. `Ready` first, then every event the session's retained
 * log holds after the reader's cursor — the `Last-Event-ID` it reconnected with, else the log's head
 * when it subscribed — as `id:`/`event:`/`data:` frames, then each new one as it is retained, and a
 * comment line every `heartbeatMs` while idle.
 *
 * The socket sets the pace, never the session: the session's own reader (RegisteredSession) drains the
 * library's per-reader buffer at memory speed, so no routine event is dropped and no control event
 * waits on an HTTP client. A response whose socket is not draining is simply not written to; when it
 * drains, it continues from its cursor, and if the log has moved past the cursor meanwhile, the reader
 * gets one `Gap` event naming the ids it missed, then the oldest retained event.
 *
 * The stream ends when the session has ended and everything owed is written, when the client goes,
 * or when the caller's identity expires or is revoked.
 */
import { type ServerResponse } from 'node:http';
import { type Identity } from '../../auth/identity.js';
import { gapFrame, READY_FRAME } from '../registry/event-log.js';
import { type RegisteredSession } from '../registry/registered-session.js';

export interface EventStreamOptions {
  readonly entry: RegisteredSession;
  readonly caller: Identity;
  /** The `Last-Event-ID` header, if any. */
  readonly lastEventId: string | undefined;
  readonly heartbeatMs: number;
  /** Headers the reply already carries (the request id). */
  readonly headers: Readonly<Record<string, string>>;
}

const HEARTBEAT = ': heartbeat\n\n';
/** Most characters gathered into one write. */
const BATCH_CHARS = 64 * 1024;

/** Streams `options.entry`'s events on `response` until the stream ends; resolves then. */
export function streamEvents(response: ServerResponse, options: EventStreamOptions): Promise<void> {
  return new EventStreamWriter(response, options).run();
}

class EventStreamWriter {
  readonly #response: ServerResponse;
  readonly #options: EventStreamOptions;
  /** The id of the last event written (or skipped as missed). */
  #cursor: number;
  #blocked = false;
  #done = false;
  #lastWrite = Date.now();
  readonly #stops: (() => void)[] = [];
  #resolve: () => void = () => undefined;

  constructor(response: ServerResponse, options: EventStreamOptions) {
    this.#response = response;
    this.#options = options;
    this.#cursor = startCursor(options.lastEventId, options.entry.log.head);
  }

  run(): Promise<void> {
    const { entry, caller, heartbeatMs } = this.#options;
    this.#response.writeHead(200, {
      ...this.#options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    const done = new Promise<void>((resolve) => (this.#resolve = resolve));
    const heartbeat = setInterval(() => {
      if (!this.#blocked && Date.now() - this.#lastWrite >= heartbeatMs) this.#write(HEARTBEAT);
    }, heartbeatMs);
    this.#stops.push(
      () => clearInterval(heartbeat),
      entry.subscribe(() => this.#onEvents()),
      caller.whenLost(() => this.#finish(true)),
    );
    this.#response.once('close', () => this.#finish(false));
    this.#write(READY_FRAME);
    this.#flush();
    return done;
  }

  #write(frame: string): void {
    this.#lastWrite = Date.now();
    if (this.#response.write(frame)) return;
    this.#blocked = true;
    this.#response.once('drain', () => {
      this.#blocked = false;
      this.#flush();
    });
  }

  /** Writes what is due from the cursor on, in batches, until caught up or the socket pushes back. */
  #flush(): void {
    const { entry } = this.#options;
    const log = entry.log;
    while (!this.#blocked && !this.#done) {
      let chunk = '';
      for (
        let next = log.after(this.#cursor);
        next && chunk.length < BATCH_CHARS;
        next = log.after(this.#cursor)
      ) {
        if (next.kind === 'gap') {
          this.#cursor = next.lastMissed;
          chunk += gapFrame(entry.id, next.firstMissed, next.lastMissed);
        } else {
          this.#cursor = next.event.seq;
          chunk += next.event.frame;
        }
      }
      if (chunk === '') break;
      this.#write(chunk);
    }
    if (!this.#blocked && entry.ended && log.after(this.#cursor) === undefined) this.#finish(true);
  }

  /** New events (a batch of them): written now, unless the socket is pushing back. */
  #onEvents(): void {
    if (this.#done || this.#blocked) return;
    try {
      this.#flush();
    } catch (error) {
      // A bug here must cost this stream, not the session's reader (which calls this) or the process.
      this.#response.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #finish(end: boolean): void {
    if (this.#done) return;
    this.#done = true;
    for (const stop of this.#stops.splice(0)) stop();
    if (end && !this.#response.writableEnded) this.#response.end();
    this.#resolve();
  }
}

/** Replay after a valid `Last-Event-ID` of this log; a missing one starts at the head (no replay). */
function startCursor(lastEventId: string | undefined, head: number): number {
  if (lastEventId === undefined) return head;
  const trimmed = lastEventId.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return 0;
  const id = Number(trimmed);
  // An id beyond the head is from another life of this session (before a restart): replay all we have.
  return id > head ? 0 : id;
}
