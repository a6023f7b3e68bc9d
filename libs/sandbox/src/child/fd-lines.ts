/**
 * Blocking newline-delimited I/O on one file descriptor, for the child's host channel. Blocking is the
 * point: a host function called from a snippet must answer synchronously, so the child waits on
 * `readSync` while the host runs the (possibly async) handler. UTF-8 is decoded across reads, so a
 * character split between two reads is never mangled.
 */
import { readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const READ_BYTES = 65_536;

export class FdLines {
  readonly #fd: number;
  readonly #chunk = Buffer.alloc(READ_BYTES);
  readonly #decoder = new StringDecoder('utf8');
  #pending = '';

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** The next line without its newline; undefined at end of input (the host closed the channel). */
  readLine(): string | undefined {
    for (;;) {
      const newline = this.#pending.indexOf('\n');
      if (newline >= 0) {
        const line = this.#pending.slice(0, newline);
        this.#pending = this.#pending.slice(newline + 1);
        return line;
      }
      const read = this.#read();
      if (read === 0) return undefined;
      this.#pending += this.#decoder.write(this.#chunk.subarray(0, read));
    }
  }

  /** Writes `line` and a newline, all of it, before returning. */
  writeLine(line: string): void {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    for (let offset = 0; offset < bytes.length;) offset += writeSync(this.#fd, bytes, offset);
  }

  #read(): number {
    for (;;) {
      try {
        return readSync(this.#fd, this.#chunk, 0, READ_BYTES, null);
      } catch (error) {
        // A non-blocking descriptor with nothing to read yet: wait by trying again.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
    }
  }
}
