/** An uploaded Gemini file, and the handle that deletes it when the caller is done with it. */
import { type FileReference, fileReference } from '@helios/core';
import { isRecord } from '../shared/error-mapping.js';
import { ProviderResponseError } from '../shared/provider-errors.js';
import { requireGeminiFileName } from './gemini-file-name.js';

export interface GeminiFile {
  /** The resource name, `files/{id}`. */
  readonly name: string;
  /** Where messages refer to it (a file reference's uri). Keep it out of logs. */
  readonly uri: string;
  readonly mimeType: string;
  readonly sizeBytes: number | undefined;
  /** `PROCESSING`, `ACTIVE` or `FAILED`, as the API reported it. */
  readonly state: string | undefined;
}

/** The file resource from the upload's final answer; a nameless or misnamed one is a broken answer. */
export function uploadedFile(answer: unknown, mimeType: string): GeminiFile {
  const file = isRecord(answer) && isRecord(answer['file']) ? answer['file'] : answer;
  if (!isRecord(file) || typeof file['name'] !== 'string' || typeof file['uri'] !== 'string') {
    throw new ProviderResponseError('gemini: upload answer has no file resource', 'gemini', 200);
  }
  let name: string;
  try {
    name = requireGeminiFileName(file['name']);
  } catch (error) {
    throw new ProviderResponseError('gemini: upload answer names no files/{id} resource', 'gemini', 200, {
      cause: error,
    });
  }
  const size = Number(file['sizeBytes'] ?? file['size_bytes']);
  const mime = file['mimeType'] ?? file['mime_type'];
  return Object.freeze({
    name,
    uri: file['uri'],
    mimeType: typeof mime === 'string' ? mime : mimeType,
    sizeBytes: Number.isSafeInteger(size) ? size : undefined,
    state: typeof file['state'] === 'string' ? file['state'] : undefined,
  });
}

/**
 * A managed upload: `close()` deletes the file once. A second close sends nothing; a close after a
 * failed deletion tries again. Close it in a `finally` (or use `GeminiFilesClient.withUpload`) so the
 * caller's own failure still deletes it.
 */
export class ManagedFile {
  readonly file: GeminiFile;
  readonly #remove: (name: string) => Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(file: GeminiFile, remove: (name: string) => Promise<void>) {
    this.file = file;
    this.#remove = remove;
  }

  get name(): string {
    return this.file.name;
  }

  /** The file as a message attachment. */
  reference(): FileReference {
    return fileReference(this.file.uri, this.file.mimeType);
  }

  close(): Promise<void> {
    this.#closing ??= this.#remove(this.file.name).catch((error: unknown) => {
      this.#closing = undefined;
      throw error;
    });
    return this.#closing;
  }
}
