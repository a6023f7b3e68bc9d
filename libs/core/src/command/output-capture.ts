/**
 * One output stream of a grant call, kept up to a byte cap while it is read. Past the cap the stream
 * is still drained (a child blocked on a full pipe would never exit) and only counted. The kept bytes
 * decode as UTF-8 without turning a character the cap cut in half into garbage.
 */
import { type Readable } from 'node:stream';

export class OutputCapture {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #total = 0;
  #error: Error | undefined;
  /** Settles when the stream has closed, after an error too (see `error`); never rejects. */
  readonly closed: Promise<void>;

  /** `limit` 0 keeps nothing and only counts. */
  constructor(stream: Readable, limit: number) {
    this.#limit = limit;
    stream.on('data', (chunk: Buffer) => this.#take(chunk));
    stream.on('error', (error: Error) => {
      this.#error ??= error;
    });
    this.closed = new Promise((resolve) => {
      if (stream.closed) resolve();
      else stream.once('close', () => resolve());
    });
  }

  /** Bytes the stream carried, kept or not. */
  get totalBytes(): number {
    return this.#total;
  }

  get keptBytes(): number {
    return this.#kept;
  }

  /** Whether the cap dropped any of the stream. */
  get truncated(): boolean {
    return this.#total > this.#kept;
  }

  /** The error the stream failed with, if it did. */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * The kept bytes as text. Where the cap cut the stream, an incomplete character at the end is left
   * out; anywhere else an invalid byte reads as U+FFFD, as the program wrote it.
   */
  text(): string {
    const bytes = Buffer.concat(this.#chunks, this.#kept);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes, { stream: this.truncated });
  }

  #take(chunk: Buffer): void {
    this.#total += chunk.length;
    const room = this.#limit - this.#kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(part);
    this.#kept += part.length;
  }
}
