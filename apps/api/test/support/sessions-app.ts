/**
 * The real API in process for the runtime API's e2e suites: a `helios.yaml` of the test's choosing, real
 * PostgreSQL (the DATABASE_URL server when set, else an embedded one), scripted models registered for
 * `scripted/<name>` agents, and small HTTP and SSE clients that can do what the tests need (pause a
 * socket, send Last-Event-ID, read a stream event by event).
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { parseConfig } from '../../src/config/load-config.js';
import { type RuntimeOptions } from '../../src/app.module.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { embeddedTarget, externalTarget, externalUrl, type DatabaseTarget } from './databases.js';

export interface SessionsAppOptions {
  /** helios.yaml text beyond `server.port: 0` and the log level. */
  readonly yaml?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly runtime?: RuntimeOptions;
  /** Reuse a database (a restart); the app then leaves it to the caller. */
  readonly target?: DatabaseTarget;
  /** Default `error`; every line is kept in `logs`. */
  readonly logLevel?: string;
}

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  // Loosely typed on purpose: tests assert on shapes.
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RequestOptions {
  readonly token?: string;
  /** An array sends the header once per value. */
  readonly headers?: Record<string, string | string[]>;
  /** An object is sent as JSON; a string as is. */
  readonly body?: unknown;
  /** The client side's address (any 127.0.0.0/8 address reaches a loopback server). */
  readonly localAddress?: string;
}

export interface SessionsApp {
  readonly url: string;
  readonly server: RunningServer;
  readonly target: DatabaseTarget;
  /** Every log line the server wrote. */
  readonly logs: readonly string[];
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** Opens the session's event stream; resolves once `Ready` arrived (or with the refusal). */
  events(sessionId: string, options?: RequestOptions & { lastEventId?: string }): Promise<EventReader>;
  close(): Promise<void>;
}

export async function startSessionsApp(options: SessionsAppOptions = {}): Promise<SessionsApp> {
  const owned = options.target === undefined;
  const target = options.target ?? (externalUrl ? await externalTarget(externalUrl) : await embeddedTarget());
  const config = parseConfig(
    `server:\n  port: 0\nlog:\n  level: ${options.logLevel ?? 'error'}\n${options.yaml ?? ''}`,
    options.env ?? {},
  );
  const logs: string[] = [];
  let server: RunningServer;
  try {
    server = await startServer(
      { ...config, database: { ...config.database, ...target.database } },
      options.env ?? {},
      { runtime: options.runtime, logDestination: { write: (line: string) => void logs.push(line) } },
    );
  } catch (error) {
    if (owned) await target.dispose();
    throw error;
  }
  const url = server.url;
  return {
    url,
    server,
    target,
    logs,
    request: (method, path, request = {}) => send(url, method, path, request),
    events: (sessionId, request = {}) => openEvents(url, sessionId, request),
    async close() {
      await server.close();
      if (owned) await target.dispose();
    },
  };
}

function headersOf(options: RequestOptions): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined && typeof options.body !== 'string')
    headers['content-type'] = 'application/json';
  return headers;
}

export function send(
  url: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Reply> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return new Promise<Reply>((resolve, reject) => {
    const request = { method, headers: headersOf(options), localAddress: options.localAddress };
    const req = httpRequest(`${url}${path}`, request, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown = undefined;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface ReceivedEvent {
  readonly id: string | undefined;
  readonly event: string;
  // Loosely typed on purpose: tests assert on shapes.
  readonly data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

export class EventReader {
  readonly events: ReceivedEvent[] = [];
  heartbeats = 0;
  readonly ended: Promise<void>;
  #waiters: (() => void)[] = [];
  #done = false;

  constructor(readonly response: IncomingMessage) {
    const parser = createParser({
      onEvent: (message: EventSourceMessage) => this.#push(message),
      onComment: () => (this.heartbeats += 1),
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => parser.feed(chunk));
    this.ended = new Promise((resolve) => {
      const end = () => {
        this.#done = true;
        this.#wake();
        resolve();
      };
      response.on('end', end);
      response.on('close', end);
      response.on('error', end);
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  get done(): boolean {
    return this.#done;
  }

  /** The events of one name received so far. */
  named(name: string): ReceivedEvent[] {
    return this.events.filter((event) => event.event === name);
  }

  /** Resolves with the first event (from `from` on) matching, once it has arrived. */
  async waitFor(
    match: (event: ReceivedEvent) => boolean,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<ReceivedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.#done) throw new Error(`stream ended without the event; got ${this.names().join(', ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${timeoutMs} ms; got ${this.names().join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent(name: string, timeoutMs?: number): Promise<ReceivedEvent> {
    return this.waitFor((event) => event.event === name, timeoutMs);
  }

  names(): string[] {
    return this.events.map((event) => event.event);
  }

  close(): void {
    this.response.destroy();
  }

  #push(message: EventSourceMessage): void {
    let data: unknown = message.data;
    try {
      data = JSON.parse(message.data);
    } catch {
      // not JSON: kept as text
    }
    this.events.push({ id: message.id, event: message.event ?? 'message', data, at: Date.now() });
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

function openEvents(
  url: string,
  sessionId: string,
  options: RequestOptions & { lastEventId?: string },
): Promise<EventReader> {
  const headers = headersOf(options);
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/sessions/${sessionId}/events`, { headers }, (res) => {
      const reader = new EventReader(res);
      if (res.statusCode !== 200) return resolve(reader);
      reader.waitForEvent('Ready').then(() => resolve(reader), reject);
    });
    req.on('error', reject);
    req.end();
  });
}
