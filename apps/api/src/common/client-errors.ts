import { STATUS_CODES, maxHeaderSize } from 'node:http';
import { type Duplex } from 'node:stream';

/**
 * Requests refused before any route or hook ran: by Node's HTTP parser or its timers (`clientError`),
 * or by Fastify's router (`frameworkErrors`). Each listener answers them in its own error shape.
 */
export type RefusedStatus = 400 | 408 | 414 | 431;

/**
 * What Node hands a `clientError` listener: the parser's or timer's code and the bytes it gave up on
 * (Fastify's typings describe `rawPacket` as JSON, it is a Buffer).
 */
export type ClientError = Error & { readonly code?: string; readonly rawPacket?: unknown };

export function clientErrorStatus(error: ClientError): RefusedStatus {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_HEADER_OVERFLOW') return requestLineTooLong(rawPacket(error)) ? 414 : 431;
  return 400;
}

/** The bytes the parser refused, when Node kept them. */
export function rawPacket(error: ClientError): Buffer | undefined {
  return Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined;
}

/** Fastify's router: a path parameter over `maxParamLength` is 414, a malformed URL (bad %-escape) 400. */
export function frameworkErrorStatus(error: { code?: string }): RefusedStatus {
  return error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
}

/**
 * Whether the bytes the parser refused carry an `Origin` header or are an OPTIONS request (in that
 * order, as the adapter listener checks them): it refuses those with 403 before anything else, even when
 * the request is unparseable.
 */
export function rawCrossOriginRefusal(
  packet: Buffer | undefined,
): 'cross_origin_request' | 'cors_preflight' | undefined {
  if (!packet) return undefined;
  const text = packet.toString('latin1');
  if (/\r\norigin[ \t]*:/i.test(text)) return 'cross_origin_request';
  return text.startsWith('OPTIONS ') ? 'cors_preflight' : undefined;
}

/** The reason phrase as a snake_case error code: 414 → `uri_too_long`. */
export function errorCode(status: number): string {
  return (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/**
 * Writes a whole response on a socket no request object exists for, then closes it. Nothing is written
 * once a response has started on this connection: it would land in the middle of that one.
 */
export function answerOnSocket(
  socket: Duplex & { bytesWritten?: number },
  status: number,
  body: string,
): void {
  if (socket.destroyed) return;
  if (socket.writable && socket.bytesWritten === 0) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Node counts the request line against the same limit as the headers; when the line alone runs past
 * it (or never ends within what was read), the URI is what is too long.
 */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const end = packet.indexOf('\r\n');
  if (end !== -1) return end >= maxHeaderSize;
  return packet.length >= maxHeaderSize || /^[A-Z]+ /.test(packet.toString('latin1', 0, 16));
}
