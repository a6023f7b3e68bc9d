import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  apiToken,
  fetchAgents,
  fetchSessions,
  isAgent,
  isAgentList,
  isErrorBody,
  isSessionList,
  isSessionSummary,
  newestFirst,
  refusalMessage,
  unauthenticatedMessage,
  type SessionSummary,
} from './runtime-api';

const demo = { name: 'demo', model: 'scripted/demo', preset: 'workspace', scripted: true, store: 'memory' };

const session: SessionSummary = {
  sessionId: 'sess-01a23422-ba24-7000-b59b-a54a207c924d',
  agent: 'demo',
  status: 'running',
  turns: 2,
  costMicroUsd: '0',
  lastResult: null,
  pendingQuestions: 1,
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:01.000Z',
};

/** A port that was just free and is now closed: connections to it are refused. */
function closedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

describe('the runtime API client', () => {
  it('reads HELIOS_API_TOKEN trimmed, and treats a blank one as unset', () => {
    const env = (token?: string) =>
      ({ NODE_ENV: 'test', ...(token === undefined ? {} : { HELIOS_API_TOKEN: token }) }) as const;
    expect(apiToken(env())).toBeUndefined();
    expect(apiToken(env(' \n '))).toBeUndefined();
    expect(apiToken(env('  tok-0123456789abcdef\n'))).toBe('tok-0123456789abcdef');
  });

  it('accepts the agent listing and refuses malformed agents', () => {
    expect(isAgent(demo)).toBe(true);
    expect(isAgent({ ...demo, scripted: false, preset: 'readOnly', store: 'postgres' })).toBe(true);
    expect(isAgent(null)).toBe(false);
    expect(isAgent([demo])).toBe(false);
    expect(isAgent({ ...demo, name: '' })).toBe(false);
    expect(isAgent({ ...demo, preset: 'admin' })).toBe(false);
    expect(isAgent({ ...demo, scripted: 'yes' })).toBe(false);
    expect(isAgent({ ...demo, store: 'sqlite' })).toBe(false);
    const { scripted: _scripted, ...unlabelled } = demo;
    expect(isAgent(unlabelled)).toBe(false);
  });

  it('accepts session summaries and refuses malformed ones', () => {
    expect(isSessionSummary(session)).toBe(true);
    expect(
      isSessionSummary({ ...session, lastResult: 'Success', costMicroUsd: '123456789012345678901' }),
    ).toBe(true);
    expect(isSessionSummary({ ...session, status: 'paused' })).toBe(false);
    expect(isSessionSummary({ ...session, turns: -1 })).toBe(false);
    expect(isSessionSummary({ ...session, turns: 1.5 })).toBe(false);
    expect(isSessionSummary({ ...session, costMicroUsd: 0 })).toBe(false);
    expect(isSessionSummary({ ...session, costMicroUsd: '1.5' })).toBe(false);
    expect(isSessionSummary({ ...session, costMicroUsd: '-1' })).toBe(false);
    expect(isSessionSummary({ ...session, lastResult: 3 })).toBe(false);
    expect(isSessionSummary({ ...session, pendingQuestions: null })).toBe(false);
    expect(isSessionSummary({ ...session, createdAt: 'soon' })).toBe(false);
    expect(isSessionSummary({ ...session, sessionId: '' })).toBe(false);
  });

  it('accepts lists only when every element is valid', () => {
    expect(isAgentList([])).toBe(true);
    expect(isAgentList([demo, { ...demo, name: 'reader', scripted: false }])).toBe(true);
    expect(isAgentList([demo, { ...demo, model: 7 }])).toBe(false);
    expect(isAgentList({ agents: [demo] })).toBe(false);
    expect(isSessionList([session])).toBe(true);
    expect(isSessionList([session, { ...session, updatedAt: undefined }])).toBe(false);
    expect(isSessionList(undefined)).toBe(false);
  });

  it('orders sessions newest first, keeping the order of equal times, without changing its input', () => {
    const at = (sessionId: string, createdAt: string) => ({ ...session, sessionId, createdAt });
    const input = [
      at('a', '2026-01-01T00:00:00Z'),
      at('b', '2026-01-03T00:00:00Z'),
      at('c', '2026-01-02T00:00:00Z'),
      at('d', '2026-01-02T00:00:00Z'),
    ];
    expect(newestFirst(input).map((s) => s.sessionId)).toEqual(['b', 'c', 'd', 'a']);
    expect(input.map((s) => s.sessionId)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('names HELIOS_API_TOKEN on a 401, and says whether the token set was refused', () => {
    const unset = unauthenticatedMessage(false);
    const refused = unauthenticatedMessage(true);
    for (const message of [unset, refused]) {
      expect(message).toContain('HTTP 401');
      expect(message).toContain('Set HELIOS_API_TOKEN');
    }
    expect(unset).toContain('HELIOS_API_TOKEN is not set');
    expect(refused).toContain('refused the token in HELIOS_API_TOKEN');
  });

  it("reports the API's refusals by code and message, and nothing else as one", () => {
    const busy = { error: 'TOO_MANY_REQUESTS', message: 'too many requests in flight for this caller' };
    expect(isErrorBody(busy)).toBe(true);
    expect(isErrorBody({ error: 'X' })).toBe(false);
    expect(refusalMessage('http://api/v1/sessions', 429, busy)).toBe(
      'http://api/v1/sessions answered HTTP 429 TOO_MANY_REQUESTS: too many requests in flight for this caller',
    );
    expect(refusalMessage('http://api/v1/sessions', 200, busy)).toBeUndefined();
    expect(refusalMessage('http://api/v1/sessions', 500, '<html>')).toBeUndefined();
  });

  it('sends nothing when HELIOS_API_TOKEN cannot be a header, and never repeats the token', async () => {
    const result = await fetchAgents('http://127.0.0.1:1', 'secret-0123456789\nX-Injected: 1');
    expect(result).toMatchObject({
      ok: false,
      failure: 'misconfigured',
      url: 'http://127.0.0.1:1/v1/agents',
    });
    expect(!result.ok && result.error).toContain('HELIOS_API_TOKEN');
    expect(JSON.stringify(result)).not.toContain('secret-0123456789');
  });

  it('reports a refused connection as unreachable, with the reason and the URL', async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const result = await fetchSessions(base, 'tok-0123456789abcdef');
    expect(result).toMatchObject({ ok: false, failure: 'unreachable', url: `${base}/v1/sessions` });
    expect(!result.ok && result.error).toContain('ECONNREFUSED');
    expect(JSON.stringify(result)).not.toContain('tok-0123456789abcdef');
  });
});
