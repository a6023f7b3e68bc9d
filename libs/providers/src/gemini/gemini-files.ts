/**
 * Gemini Files API client: resumable uploads streamed from a file path or a Node Readable (the bytes are
 * never held in memory: the body is the stream, its size declared up front), deletion by `files/{id}`,
 * and managed uploads whose handle deletes the file on close. No request is built from a name that is
 * not `files/{id}`. Nothing is logged, and errors carry neither file URIs nor the key.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { abortReason, HeliosError, InvalidArgumentError, type ModelConfig } from '@helios/core';
import { ApiKey } from '../shared/api-key.js';
import { connectionError, type ErrorSource, errorFromStatus } from '../shared/error-mapping.js';
import { ProviderResponseError } from '../shared/provider-errors.js';
import { geminiEndpoint, type GeminiEndpointOptions, under, uploadPrefix } from './gemini-endpoint.js';
import { requireGeminiFileName } from './gemini-file-name.js';
import { type GeminiFile, ManagedFile, uploadedFile } from './gemini-managed-file.js';

const PROVIDER = 'gemini';

/** A path on disk, or a stream whose byte count the caller knows (the upload declares it first). */
export type UploadSource = string | { readonly stream: Readable; readonly sizeBytes: number };

export interface UploadOptions {
  readonly displayName?: string;
  readonly signal?: AbortSignal;
}

export class GeminiFilesClient {
  readonly #apiKey: ApiKey | undefined;
  readonly #config: ModelConfig;
  readonly #prefix: string;
  readonly #source: ErrorSource;

  constructor(config: ModelConfig, endpointOptions: GeminiEndpointOptions = {}) {
    this.#apiKey = ApiKey.of(config.apiKey);
    if (this.#apiKey === undefined && config.baseUrl === undefined) {
      throw new InvalidArgumentError(
        'gemini files client needs an apiKey (or a baseUrl that authenticates itself)',
      );
    }
    this.#config = config;
    this.#prefix = geminiEndpoint('gemini files client', config, endpointOptions).prefix;
    this.#source = { provider: PROVIDER, apiKey: this.#apiKey };
  }

  /** Uploads and returns the file; the caller owns its lifecycle (see `delete`). */
  async upload(source: UploadSource, mimeType: string, options: UploadOptions = {}): Promise<GeminiFile> {
    if (mimeType.trim() === '') throw new InvalidArgumentError('gemini: mimeType must be non-blank');
    const { stream, sizeBytes } = await openSource(source);
    try {
      const uploadUrl = await this.#startUpload(sizeBytes, mimeType, options);
      const answer = await this.#request(
        uploadUrl,
        {
          method: 'POST',
          headers: {
            'content-length': String(sizeBytes),
            'x-goog-upload-offset': '0',
            'x-goog-upload-command': 'upload, finalize',
          },
          body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
          duplex: 'half',
        },
        options.signal,
        false,
      );
      const file = uploadedFile(await answer.json().catch(() => undefined), mimeType);
      if (file.state === 'FAILED') {
        await this.delete(file.name).catch(() => undefined);
        throw new ProviderResponseError(
          `${PROVIDER}: file processing failed; the upload was deleted`,
          PROVIDER,
          200,
        );
      }
      return file;
    } finally {
      stream.destroy();
    }
  }

  /** Uploads and returns a handle whose `close()` deletes the file, once. */
  async uploadManaged(
    source: UploadSource,
    mimeType: string,
    options: UploadOptions = {},
  ): Promise<ManagedFile> {
    return new ManagedFile(await this.upload(source, mimeType, options), (name) => this.delete(name));
  }

  /** Runs `work` with a managed upload and deletes the file afterwards, whether `work` succeeded or threw. */
  async withUpload<T>(
    source: UploadSource,
    mimeType: string,
    work: (file: ManagedFile) => Promise<T>,
    options: UploadOptions = {},
  ): Promise<T> {
    const file = await this.uploadManaged(source, mimeType, options);
    try {
      return await work(file);
    } finally {
      await file.close();
    }
  }

  /** Deletes `files/{id}`; a file already gone counts as deleted. Other names throw before any request. */
  async delete(name: string, signal?: AbortSignal): Promise<void> {
    const id = requireGeminiFileName(name).slice('files/'.length);
    const response = await this.#request(
      under(this.#prefix, `/files/${id}`),
      { method: 'DELETE' },
      signal,
      true,
      [404],
    );
    await response.body?.cancel();
  }

  async #startUpload(sizeBytes: number, mimeType: string, options: UploadOptions): Promise<string> {
    const start = `${uploadPrefix(this.#prefix)}/files`;
    const response = await this.#request(
      start,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-goog-upload-protocol': 'resumable',
          'x-goog-upload-command': 'start',
          'x-goog-upload-header-content-length': String(sizeBytes),
          'x-goog-upload-header-content-type': mimeType,
        },
        body: JSON.stringify(
          options.displayName === undefined ? {} : { file: { display_name: options.displayName } },
        ),
      },
      options.signal,
      true,
    );
    await response.body?.cancel();
    const uploadUrl = response.headers.get('x-goog-upload-url');
    // The bytes go only where the API lives: an upload URL on another origin is refused (and not shown).
    if (
      uploadUrl === null ||
      !URL.canParse(uploadUrl) ||
      new URL(uploadUrl).origin !== new URL(start).origin
    ) {
      throw new ProviderResponseError(
        `${PROVIDER}: upload start gave no usable upload URL`,
        PROVIDER,
        response.status,
      );
    }
    return uploadUrl;
  }

  /** One request with the key (when `keyed`), the caller's abort, and mapped errors. */
  async #request(
    url: string,
    init: RequestInit & { duplex?: 'half' },
    signal: AbortSignal | undefined,
    keyed: boolean,
    tolerated: readonly number[] = [],
  ): Promise<Response> {
    if (signal?.aborted) throw abortReason(signal);
    const defaults: Record<string, string> =
      keyed && this.#apiKey !== undefined ? { 'x-goog-api-key': this.#apiKey.reveal() } : {};
    const headers = {
      ...this.#config.effectiveHeaders(defaults),
      ...(init.headers as Record<string, string>),
    };
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers, ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof HeliosError) throw error;
      throw connectionError(this.#source, error);
    }
    if (response.ok || tolerated.includes(response.status)) return response;
    throw errorFromStatus(this.#source, response.status, response.headers, await response.text());
  }
}

async function openSource(source: UploadSource): Promise<{ stream: Readable; sizeBytes: number }> {
  if (typeof source === 'string') {
    const info = await stat(source);
    if (!info.isFile()) throw new InvalidArgumentError('gemini: the upload source must be a regular file');
    return { stream: createReadStream(source), sizeBytes: info.size };
  }
  if (!Number.isSafeInteger(source.sizeBytes) || source.sizeBytes < 0) {
    throw new InvalidArgumentError(
      `gemini: sizeBytes must be a non-negative integer, got ${source.sizeBytes}`,
    );
  }
  return source;
}
