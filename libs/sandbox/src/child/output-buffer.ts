/**
 * A snippet's printed text on its way to the host: kept up to the per-stream cap (the rest only
 * counted), sent in chunks of at most OUTPUT_CHUNK_CHARS so no frame grows with the output. One buffer
 * serves every execute of a child, `reset` between them.
 */
import { MAX_STREAM_CHARS, OUTPUT_CHUNK_CHARS, type OutputStream } from './protocol.js';

interface StreamState {
  pending: string;
  kept: number;
  discarded: number;
}

export class OutputBuffer {
  readonly #send: (stream: OutputStream, text: string) => void;
  readonly #cap: number;
  readonly #chunk: number;
  readonly #streams: Record<OutputStream, StreamState> = {
    stdout: { pending: '', kept: 0, discarded: 0 },
    stderr: { pending: '', kept: 0, discarded: 0 },
  };

  constructor(
    send: (stream: OutputStream, text: string) => void,
    cap = MAX_STREAM_CHARS,
    chunk = OUTPUT_CHUNK_CHARS,
  ) {
    this.#send = send;
    this.#cap = cap;
    this.#chunk = chunk;
  }

  write(stream: OutputStream, text: string): void {
    const state = this.#streams[stream];
    const room = this.#cap - state.kept;
    const taken = text.length <= room ? text : text.slice(0, Math.max(0, room));
    state.kept += taken.length;
    state.discarded += text.length - taken.length;
    state.pending += taken;
    while (state.pending.length >= this.#chunk) {
      this.#send(stream, state.pending.slice(0, this.#chunk));
      state.pending = state.pending.slice(this.#chunk);
    }
  }

  /** Starts the next execute: nothing held, nothing counted. */
  reset(): void {
    this.#streams.stdout = { pending: '', kept: 0, discarded: 0 };
    this.#streams.stderr = { pending: '', kept: 0, discarded: 0 };
  }

  /** Sends what is still held. */
  flush(): void {
    this.#flushStream('stdout');
    this.#flushStream('stderr');
  }

  #flushStream(stream: OutputStream): void {
    const state = this.#streams[stream];
    if (state.pending === '') return;
    this.#send(stream, state.pending);
    state.pending = '';
  }

  get discarded(): { readonly stdout: number; readonly stderr: number } {
    return { stdout: this.#streams.stdout.discarded, stderr: this.#streams.stderr.discarded };
  }
}
