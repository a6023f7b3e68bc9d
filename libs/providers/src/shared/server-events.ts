/**
 * Reads a streamed body as server-sent events with `eventsource-parser`, one decoded piece at a time,
 * failing when the body stays silent longer than the idle timeout. Events are handed over per piece, as
 * a batch: one await per network read instead of one per event (an async step cost more than parsing
 * the event; `bench/provider-stream`).
 */
import { type ReadableStreamDefaultReader, type ReadableStreamReadResult } from 'node:stream/web';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type ErrorSource } from './error-mapping.js';
import { ProviderResponseError } from './provider-errors.js';

export type ServerEvent = EventSourceMessage;

/** The events one piece of the body completed, in order (never empty). */
export type ServerEventBatch = readonly ServerEvent[];

export interface ReadSettings extends ErrorSource {
  readonly streamIdleTimeoutMs: number;
  /** The HTTP status the stream came with, for errors raised while reading it. */
  readonly status: number;
}

export async function* readServerEvents(
  body: ReadableStream<Uint8Array>,
  settings: ReadSettings,
): AsyncGenerator<ServerEventBatch, void, undefined> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending: ServerEvent[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  try {
    for (;;) {
      const piece = await readWithin(reader, settings);
      if (piece.done) break;
      parser.feed(piece.value);
      if (pending.length === 0) continue;
      const ready = pending;
      pending = [];
      yield ready;
    }
  } finally {
    // Stopped early, failed or timed out: cancelling the reader cancels the body, which hangs up.
    reader.cancel().catch(() => undefined);
  }
}

async function readWithin(
  reader: ReadableStreamDefaultReader<string>,
  settings: ReadSettings,
): Promise<ReadableStreamReadResult<string>> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new ProviderResponseError(
          `${settings.provider}: stream idle for more than ${settings.streamIdleTimeoutMs} ms`,
          settings.provider,
          settings.status,
        ),
      );
    }, settings.streamIdleTimeoutMs);
  });
  try {
    return await Promise.race([reader.read(), silence]);
  } finally {
    clearTimeout(timer);
  }
}

/** The JSON an event carries; a payload that is not JSON breaks the wire format. */
export function eventJson(settings: ErrorSource, event: ServerEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch (error) {
    throw new ProviderResponseError(
      `${settings.provider}: stream event${event.event ? ` '${event.event}'` : ''} is not JSON`,
      settings.provider,
      200,
      { cause: error },
    );
  }
}
