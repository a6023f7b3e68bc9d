/** Files that travel with a message: inline bytes (images, PDFs) or a provider-side file reference. */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requireNonBlank } from '../common/validate.js';

export interface InlineFile {
  readonly type: 'InlineFile';
  readonly data: Uint8Array;
  readonly mimeType: string;
  /** A file name to show with it (a document's title), when the producer knows one. */
  readonly name?: string;
}

/** A file already uploaded to the provider (e.g. Gemini Files API), sent by reference. */
export interface FileReference {
  readonly type: 'FileReference';
  readonly uri: string;
  readonly mimeType: string;
}

export function inlineFile(data: Uint8Array, mimeType: string, name?: string): InlineFile {
  if (data.length === 0) throw new InvalidArgumentError('inline file data must not be empty');
  return Object.freeze({
    type: 'InlineFile',
    data,
    mimeType: requireNonBlank(mimeType, 'mimeType'),
    ...(name === undefined ? {} : { name: requireNonBlank(name, 'inline file name') }),
  });
}

export function fileReference(uri: string, mimeType: string): FileReference {
  return Object.freeze({
    type: 'FileReference',
    uri: requireNonBlank(uri, 'file uri'),
    mimeType: requireNonBlank(mimeType, 'mimeType'),
  });
}
