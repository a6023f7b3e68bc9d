import { Transform, type TransformCallback } from 'node:stream';
import { type RuntimeRefusal } from './refusals.js';

/**
 * A request body as it arrives, checked per chunk: past `limit` bytes (a chunked body declares no
 * length) it fails with 413, and `refuse` (the identity expiring or being revoked mid-upload) fails it
 * with 401; either way the handler never runs. Fastify reads `receivedEncodedLength` for its own cap.
 */
export class UploadGuard extends Transform {
  receivedEncodedLength = 0;

  constructor(
    private readonly limit: number,
    private readonly tooLarge: () => RuntimeRefusal,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.receivedEncodedLength > this.limit) return callback(this.tooLarge());
    callback(null, chunk);
  }

  /** Fails the upload now (its identity was lost). */
  refuse(refusal: RuntimeRefusal): void {
    if (!this.writableFinished) this.destroy(refusal);
  }
}
