import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import {
  inlineFile,
  InvalidArgumentError,
  Message,
  ModelConfig,
  ToolChoice,
  toolDefinition,
} from '@helios/core';
import {
  type RecordedRequest,
  type RecordedResponse,
  type RecordedStreamServer,
  serveRecordedStream,
} from '@helios/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GeminiFilesClient } from '../src/gemini/gemini-files.js';
import { ProviderRejectedError, ProviderResponseError } from '../src/shared/provider-errors.js';
import { everythingShown } from './support/collect.js';
import { fixtureText, sseResponse } from './support/fixtures.js';
import { GEMINI_KEY, startGemini, stopGemini } from './support/gemini-server.js';

const P = 'gemini';
/** Larger than one read chunk (64 KiB) and one socket write, ASCII so the recorded body compares. */
const SIZE = 200_000;
const CONTENT = 'helios-gemini-files-'.repeat(SIZE / 20);

let dir: string;
let path: string;
const servers: RecordedStreamServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gemini-files-'));
  path = join(dir, 'notes.txt');
  writeFileSync(path, CONTENT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await stopGemini();
});

interface FilesApi {
  readonly server: RecordedStreamServer;
  readonly files: GeminiFilesClient;
}

/** A fake Files API: start → upload URL on the same server, finalize → `answer`, DELETE → 200. */
async function startFilesApi(
  options: { answer?: string; uploadUrl?: string; start?: RecordedResponse } = {},
): Promise<FilesApi> {
  let url = '';
  const server = await serveRecordedStream((request: RecordedRequest) => {
    if (request.method === 'DELETE') return { format: 'raw', body: '{}' };
    if (request.url === '/upload/v1beta/files') {
      return (
        options.start ?? {
          format: 'raw',
          headers: { 'x-goog-upload-url': options.uploadUrl ?? `${url}/upload/v1beta/files?upload_id=up-1` },
          body: '',
        }
      );
    }
    return { format: 'raw', body: options.answer ?? fixtureText(P, 'file-uploaded.json') };
  });
  url = server.url;
  servers.push(server);
  const config = ModelConfig.create({ apiKey: GEMINI_KEY, apiVersion: 'v1beta' });
  return { server, files: new GeminiFilesClient(config, { host: server.url }) };
}

describe('GeminiFilesClient', () => {
  it('streams a file from disk through a resumable upload, size declared up front', async () => {
    const { server, files } = await startFilesApi();
    const file = await files.upload(path, 'text/plain', { displayName: 'meeting-notes' });
    expect(file).toMatchObject({
      name: 'files/abc123xyz',
      mimeType: 'text/plain',
      sizeBytes: SIZE,
      state: 'ACTIVE',
    });
    expect(file.uri).toBe('https://generativelanguage.googleapis.com/v1beta/files/abc123xyz');
    const [start, upload] = server.requests;
    expect(start?.headers).toMatchObject({
      'x-goog-api-key': GEMINI_KEY,
      'x-goog-upload-protocol': 'resumable',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-length': String(SIZE),
      'x-goog-upload-header-content-type': 'text/plain',
    });
    expect(start?.json()).toEqual({ file: { display_name: 'meeting-notes' } });
    expect(upload?.url).toBe('/upload/v1beta/files?upload_id=up-1');
    expect(upload?.headers).toMatchObject({
      'content-length': String(SIZE),
      'x-goog-upload-offset': '0',
      'x-goog-upload-command': 'upload, finalize',
    });
    expect(upload?.headers).not.toHaveProperty('x-goog-api-key');
    expect(upload?.body.length).toBe(SIZE);
    expect(upload?.body).toBe(CONTENT);
  });

  it('streams from a Readable of several chunks', async () => {
    const { server, files } = await startFilesApi();
    const parts = ['first chunk|', 'x'.repeat(100_000), '|last'];
    const sizeBytes = parts.join('').length;
    const file = await files.upload({ stream: Readable.from(parts), sizeBytes }, 'text/plain');
    expect(file.name).toBe('files/abc123xyz');
    expect(server.requests[1]?.body).toBe(parts.join(''));
    expect(server.requests[0]?.json()).toEqual({});
  });

  it('refuses names other than files/{id} before any request', async () => {
    const { server, files } = await startFilesApi();
    for (const name of [
      'files/../secrets',
      'models/abc',
      'files/ABC',
      'files/',
      'https://x/files/abc',
      'files/a/b',
    ]) {
      await expect(files.delete(name)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a managed file is deleted once: a second close sends nothing', async () => {
    const { server, files } = await startFilesApi();
    const video = await files.uploadManaged(path, 'text/plain');
    expect(video.reference()).toEqual({
      type: 'FileReference',
      uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc123xyz',
      mimeType: 'text/plain',
    });
    await video.close();
    await video.close();
    const deletes = server.requests.filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.url)).toEqual(['/v1beta/files/abc123xyz']);
    expect(deletes[0]?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
  });

  it('deletes the file when the caller’s work throws', async () => {
    const { server, files } = await startFilesApi();
    const failure = new Error('analysis failed');
    await expect(
      files.withUpload(path, 'text/plain', async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    const video = await files.uploadManaged(path, 'text/plain');
    try {
      await Promise.reject(failure);
    } catch {
      // the caller's own failure, handled
    } finally {
      await video.close();
    }
    expect(server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2);
  });

  it('deletes what a failed upload created and says so', async () => {
    const { server, files } = await startFilesApi({ answer: fixtureText(P, 'file-failed.json') });
    const error = await files.upload(path, 'video/mp4').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toBe('gemini: file processing failed; the upload was deleted');
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v1beta/files/broken42' });
  });

  it('treats an answer without a files/{id} resource as broken, deleting nothing', async () => {
    for (const [answer, message] of [
      ['{}', 'gemini: upload answer has no file resource'],
      ['{"file":{"name":"files/../x","uri":"u"}}', 'gemini: upload answer names no files/{id} resource'],
    ] as const) {
      const { server, files } = await startFilesApi({ answer });
      await expect(files.upload(path, 'text/plain')).rejects.toThrow(message);
      expect(server.requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    }
  });

  it('sends no bytes to an upload URL on another origin, and does not show it', async () => {
    const { server, files } = await startFilesApi({ uploadUrl: 'https://elsewhere.example/upload?id=1' });
    const error = await files.upload(path, 'text/plain').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(everythingShown(error)).not.toContain('elsewhere');
    expect(server.requests).toHaveLength(1);
  });

  it('maps a rejected start to a rejection without the key; a file already gone counts as deleted', async () => {
    const denied: RecordedResponse = {
      format: 'raw',
      status: 403,
      body: JSON.stringify({
        error: { code: 403, message: 'Permission denied.', status: 'PERMISSION_DENIED' },
      }),
    };
    const { files } = await startFilesApi({ start: denied });
    const error = await files.upload(path, 'text/plain').catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as Error).message).toBe('gemini: HTTP 403: Permission denied.');
    expect(everythingShown(error)).not.toContain(GEMINI_KEY);
    expect(inspect(files, { depth: 10, showHidden: true })).not.toContain(GEMINI_KEY);
    const gone = await serveRecordedStream({ format: 'raw', status: 404, body: '{}' });
    servers.push(gone);
    const client = new GeminiFilesClient(ModelConfig.create({ apiKey: GEMINI_KEY }), { host: gone.url });
    await expect(client.delete('files/abc123xyz')).resolves.toBeUndefined();
  });
});

describe('gemini messages with files', () => {
  it('sends references and inline files as content items before the text, with tools and choice', async () => {
    const weather = toolDefinition({
      name: 'get_weather',
      description: 'Weather',
      inputSchema: { type: 'object' },
    });
    const { server, model } = await startGemini(sseResponse(P, 'plain-text'), {
      toolChoice: ToolChoice.required(['get_weather']),
      providerContinuation: false,
    });
    const video = {
      type: 'FileReference',
      uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc123xyz',
      mimeType: 'video/mp4',
    } as const;
    const image = inlineFile(new Uint8Array([1, 2, 3]), 'image/png');
    const pdf = inlineFile(new Uint8Array([4, 5]), 'application/pdf');
    await model.chat(
      [
        Message.system('Be brief.'),
        Message.user('Summarize.', { inlineFiles: [image, pdf], fileReferences: [video] }),
      ],
      [weather],
    );
    expect(server.requests[0]?.json()).toEqual({
      model: 'gemini-3-flash-preview',
      input: [
        {
          type: 'user_input',
          content: [
            { type: 'image', data: 'AQID', mime_type: 'image/png' },
            { type: 'document', data: 'BAU=', mime_type: 'application/pdf' },
            { type: 'video', uri: video.uri, mime_type: 'video/mp4' },
            { type: 'text', text: 'Summarize.' },
          ],
        },
      ],
      stream: true,
      store: false,
      system_instruction: 'Be brief.',
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' } },
      ],
      generation_config: {
        max_output_tokens: 65_536,
        tool_choice: { allowed_tools: { mode: 'validated', tools: ['get_weather'] } },
      },
    });
  });
});
