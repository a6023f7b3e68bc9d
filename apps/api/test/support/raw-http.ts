/**
 * Raw TCP clients for attacks an HTTP client library will not perform: headers that never end, a body
 * announced and never sent, a body trickled a byte at a time, thousands of bytes of path.
 */
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves when the server closed the connection (or reset it), with what it had sent. */
  readonly closed: Promise<string>;
  write(text: string): void;
  destroy(): void;
}

/** Opens a connection to `url`'s host and port and sends `initial` once connected. */
export function rawConnection(url: string, initial = ''): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise<string>((resolveClosed) => socket.on('close', () => resolveClosed(text)));
    socket.on('error', () => undefined); // a reset is an answer too: `closed` reports it
    socket.once('connect', () => {
      if (initial) socket.write(initial);
      resolve({
        socket,
        received: () => text,
        closed,
        write: (more) => void (socket.destroyed ? undefined : socket.write(more)),
        destroy: () => socket.destroy(),
      });
    });
    socket.once('error', reject);
  });
}

/** One whole request on a fresh connection; resolves with status and body once the server closes. */
export async function rawRequest(url: string, request: string): Promise<{ status: number; body: string }> {
  const connection = await rawConnection(url, request);
  const timer = setTimeout(() => connection.destroy(), 10_000);
  const text = await connection.closed;
  clearTimeout(timer);
  return parseResponse(text);
}

export function parseResponse(text: string): { status: number; body: string } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** Resolves with how long `promise` took, in ms, and its value. */
export async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await promise;
  return { ms: Date.now() - started, value };
}
