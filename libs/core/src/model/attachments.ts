/** Files that travel with a message: inline bytes (images, PDFs) or a provider-side file reference. */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requireNonBlank } from '../common/validate.js';

export interface InlineFile {
  readonly type: 'InlineFile';
  readonly data: Uint8Array;
  readonly mimeType: string;
}

/** A file already uploaded to the provider (e.g. Gemini Files API), sent by reference. */
export interface FileReference {
  readonly type: 'FileReference';
  readonly uri: string;
  readonly mimeType: string;
}

export function inlineFile(data: Uint8Array, mimeType: string): InlineFile {
  if (data.length === 0) throw new InvalidArgumentError('inline file data must not be empty');
  return Object.freeze({ type: 'InlineFile', data, mimeType: requireNonBlank(mimeType, 'mimeType') });
}

export function fileReference(uri: string, mimeType: string): FileReference {
  return Object.freeze({
    type: 'FileReference',
    uri: requireNonBlank(uri, 'file uri'),
    mimeType: requireNonBlank(mimeType, 'mimeType'),
  });
}
