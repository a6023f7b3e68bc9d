/** Inline file bytes as the base64 text JSON APIs carry them. */
import { type InlineFile } from '@helios/core';

export function base64Of(file: InlineFile): string {
  return Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength).toString('base64');
}
