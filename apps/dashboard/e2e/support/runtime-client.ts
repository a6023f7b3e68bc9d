// The runtime API driven over plain HTTP, as any client of the API would, to give the pages something to
// show. The tests compare what the pages render with what these calls answer.
import { setTimeout as sleep } from 'node:timers/promises';

/** What `GET /v1/agents` lists. */
export interface ListedAgent {
  readonly name: string;
  readonly model: string;
  readonly preset: string;
  readonly scripted: boolean;
  readonly store: string;
}

/** What `GET /v1/sessions` lists, as far as the tests read it. */
export interface ListedSession {
  readonly sessionId: string;
  readonly agent: string;
  readonly status: string;
  readonly turns: number;
  readonly costMicroUsd: string;
  readonly pendingQuestions: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface RuntimeClient {
  listAgents(): Promise<ListedAgent[]>;
  listSessions(): Promise<ListedSession[]>;
  /** `POST /v1/sessions` `{"agent"}`; resolves to the new session's id. */
  createSession(agent: string): Promise<string>;
  /** `POST /v1/sessions/{id}/messages` `{"text"}` (202: the run goes on in the background). */
  sendMessage(sessionId: string, text: string): Promise<void>;
  /** Polls `GET /v1/sessions` until `ready` holds for the session, and returns its listing then. */
  waitForSession(sessionId: string, ready: (session: ListedSession) => boolean): Promise<ListedSession>;
}

const WAIT_TIMEOUT_MS = 15_000;

/** A client of the API at `apiUrl`, sending `Authorization: Bearer <token>` when a token is given. */
export function runtimeClient(apiUrl: string, token?: string): RuntimeClient {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  const listSessions = async () => (await call('GET', '/v1/sessions')) as ListedSession[];
  return {
    listAgents: async () => (await call('GET', '/v1/agents')) as ListedAgent[],
    listSessions,
    createSession: async (agent) =>
      ((await call('POST', '/v1/sessions', { agent })) as { sessionId: string }).sessionId,
    sendMessage: async (sessionId, text) => {
      await call('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/messages`, { text });
    },
    waitForSession: async (sessionId, ready) => {
      const deadline = Date.now() + WAIT_TIMEOUT_MS;
      let last: ListedSession | undefined;
      while (Date.now() < deadline) {
        last = (await listSessions()).find((session) => session.sessionId === sessionId);
        if (last && ready(last)) return last;
        await sleep(100);
      }
      throw new Error(`session ${sessionId} did not reach the expected state: ${JSON.stringify(last)}`);
    },
  };
}
