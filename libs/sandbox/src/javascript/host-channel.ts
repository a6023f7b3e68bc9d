/**
 * The host's end of the fd-3 channel: newline-delimited JSON, read with a hard cap on a frame's length.
 * A frame past the cap (counted while it is still arriving, so a child cannot make the host buffer
 * more) or a frame that is not JSON is a fault: the channel stops reading and reports it once, and the
 * owner ends the sandbox. The socket closing (or failing, which closes it) is reported separately: the
 * child is usually exiting, and its exit says more. Parsed frames are handed over as plain data, never
 * merged into anything.
 */
import { type Duplex } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export interface ChannelHandlers {
  readonly onFrame: (frame: unknown) => void;
  readonly onFault: (reason: string) => void;
  readonly onClose: () => void;
}

export class HostChannel {
  readonly #socket: Duplex;
  readonly #maxFrameChars: number;
  readonly #handlers: ChannelHandlers;
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';
  #faulted = false;

  constructor(socket: Duplex, maxFrameChars: number, handlers: ChannelHandlers) {
    this.#socket = socket;
    this.#maxFrameChars = maxFrameChars;
    this.#handlers = handlers;
    socket.on('data', (chunk: Buffer) => this.#take(this.#decoder.write(chunk)));
    socket.on('error', () => undefined); // a close follows
    socket.on('close', () => handlers.onClose());
  }

  /** Sends one frame given as its JSON text. */
  sendRaw(json: string): void {
    if (!this.#faulted && !this.#socket.destroyed) this.#socket.write(`${json}\n`);
  }

  send(frame: object): void {
    this.sendRaw(JSON.stringify(frame));
  }

  #take(text: string): void {
    let start = 0;
    for (
      let newline = text.indexOf('\n');
      newline >= 0 && !this.#faulted;
      newline = text.indexOf('\n', start)
    ) {
      const line = this.#pending + text.slice(start, newline);
      this.#pending = '';
      start = newline + 1;
      if (!this.#withinCap(line.length)) return;
      this.#deliver(line);
    }
    if (this.#faulted) return;
    this.#pending += text.slice(start);
    this.#withinCap(this.#pending.length);
  }

  #withinCap(length: number): boolean {
    if (length <= this.#maxFrameChars) return true;
    this.#fault(`a frame exceeded ${this.#maxFrameChars.toLocaleString('en-US')} chars`);
    return false;
  }

  #deliver(line: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.#fault('a frame was not JSON');
      return;
    }
    this.#handlers.onFrame(frame);
  }

  #fault(reason: string): void {
    if (this.#faulted) return;
    this.#faulted = true;
    this.#pending = '';
    this.#socket.pause();
    this.#handlers.onFault(reason);
  }
}
