/**
 * A local HTTP server (127.0.0.1, ephemeral port) that plays back a recorded provider response — SSE,
 * JSON lines or a raw body — with optional per-chunk delays, and records every request it receives,
 * including whether the client hung up before the response ended (how stream aborts are observed).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RecordedEvent {
  /** A string is written verbatim; anything else as JSON. */
  readonly data: unknown;
  /** SSE `event:` name. */
  readonly event?: string;
  readonly id?: string;
  /** Wait before this event, overriding the response's `chunkDelayMs`. */
  readonly delayMs?: number;
}

export interface RecordedResponse {
  readonly format: 'sse' | 'jsonl' | 'raw';
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** For `sse` and `jsonl`. */
  readonly events?: readonly RecordedEvent[];
  /** For `raw` (e.g. a JSON error body). */
  readonly body?: string;
  /** Default wait before each event. */
  readonly chunkDelayMs?: number;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  json(): unknown;
  /** Settles when the response ended, or the client went away first. */
  readonly outcome: Promise<'completed' | 'disconnected'>;
}

export interface RecordedStreamServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

export type ResponsePlan =
  | RecordedResponse
  | readonly RecordedResponse[]
  | ((request: RecordedRequest, index: number) => RecordedResponse);

const CONTENT_TYPES = {
  sse: 'text/event-stream',
  jsonl: 'application/x-ndjson',
  raw: 'application/json',
} as const;

/**
 * Serves `plan`: one response for every request, a list consumed in order (a request past its end gets
 * 500), or a function of the request.
 */
export async function serveRecordedStream(plan: ResponsePlan): Promise<RecordedStreamServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let settle: (outcome: 'completed' | 'disconnected') => void = () => undefined;
      const body = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
        json: () => JSON.parse(body) as unknown,
        outcome: new Promise((resolve) => (settle = resolve)),
      };
      const index = requests.push(recorded) - 1;
      res.on('close', () => settle(res.writableFinished ? 'completed' : 'disconnected'));
      const response = pick(plan, recorded, index);
      void play(response, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function pick(plan: ResponsePlan, request: RecordedRequest, index: number): RecordedResponse {
  if (typeof plan === 'function') return plan(request, index);
  if (!Array.isArray(plan)) return plan as RecordedResponse;
  return (
    (plan as readonly RecordedResponse[])[index] ?? {
      format: 'raw',
      status: 500,
      body: JSON.stringify({ error: `no recorded response for request ${index + 1}` }),
    }
  );
}

async function play(response: RecordedResponse, res: ServerResponse): Promise<void> {
  res.writeHead(response.status ?? 200, {
    'content-type': CONTENT_TYPES[response.format],
    ...response.headers,
  });
  if (response.format === 'raw') {
    res.end(response.body ?? '');
    return;
  }
  res.flushHeaders();
  for (const event of response.events ?? []) {
    const wait = event.delayMs ?? response.chunkDelayMs ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (res.destroyed) return; // the client hung up
    res.write(response.format === 'sse' ? sseFrame(event) : `${dataText(event.data)}\n`);
  }
  res.end();
}

function dataText(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data);
}

function sseFrame(event: RecordedEvent): string {
  const lines: string[] = [];
  if (event.event !== undefined) lines.push(`event: ${event.event}`);
  if (event.id !== undefined) lines.push(`id: ${event.id}`);
  for (const line of dataText(event.data).split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/** Events from SSE text as a provider sent it (a recorded fixture): blocks separated by blank lines. */
export function parseSseFixture(text: string): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n{2,}/)) {
    const data: string[] = [];
    let name: string | undefined;
    let id: string | undefined;
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (line === '' || colon === 0) continue; // blank or comment
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') name = value;
      else if (field === 'id') id = value;
    }
    if (data.length === 0 && name === undefined) continue;
    events.push({
      data: data.join('\n'),
      ...(name === undefined ? {} : { event: name }),
      ...(id === undefined ? {} : { id }),
    });
  }
  return events;
}

/** Events from JSON-lines text: one per non-blank line, kept verbatim. */
export function parseJsonLinesFixture(text: string): RecordedEvent[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => ({ data: line }));
}
