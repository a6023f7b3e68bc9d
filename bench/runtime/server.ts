/**
 * One server process for the runtime benchmark; prints `LISTENING <url>` once ready.
 *
 * `helios`: the built API (`apps/api/dist`, as `npm start` runs it) on an embedded PostgreSQL in a
 * scratch directory, with two scripted agents: `stream` plays DELTAS text deltas DELTA_INTERVAL_MS
 * apart per run, `quick` answers at once; every run of every session the same.
 *
 * `floor`: a bare Fastify app with the same routes' shapes: `GET …/events` keeps the response and
 * writes `Ready`, and `POST …/messages` plays the same events at the same pace, each framed once
 * (`id:`, `event:`, `data:` with the same fields) and written to every stream of that session — the
 * least a server can do to deliver the same frames to the same number of streams.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type * as CoreModule from '@helios/core';
import type * as ConfigModule from '../../apps/api/src/config/load-config.ts';
import type * as ServerModule from '../../apps/api/src/server.ts';
import { DELTA_INTERVAL_MS, DELTA_TEXT, DELTAS, TOKEN } from './workload.ts';

// The built code, as the API runs it (see governance-http/server.ts for why not the sources).
const dist = (path: string): string => new URL(`../../${path}`, import.meta.url).href;
const { createModel, FinishReason, Usage } = (await import(
  dist('libs/core/dist/index.js')
)) as typeof CoreModule;

function pacedModel(deltas: number, intervalMs: number): CoreModule.Model {
  return createModel({
    id: 'bench',
    provider: 'scripted',
    async *stream(_request, signal) {
      for (let i = 0; i < deltas; i += 1) {
        if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
        if (signal.aborted) return;
        yield { type: 'TextDelta', text: DELTA_TEXT };
      }
      yield { type: 'MessageStop', finishReason: FinishReason.STOP, usage: Usage.ZERO, metadata: {} };
    },
  });
}

async function helios(): Promise<string> {
  const { parseConfig } = (await import(dist('apps/api/dist/config/load-config.js'))) as typeof ConfigModule;
  const { startServer } = (await import(dist('apps/api/dist/server.js'))) as typeof ServerModule;
  const dataDir = await mkdtemp(join(tmpdir(), 'helios-bench-runtime-'));
  const config = parseConfig(
    [
      'server: { port: 0, maxConnections: 8192 }',
      'log: { level: warn }',
      `database: { dataDir: ${dataDir} }`,
      `auth: { tokens: [{ token: ${TOKEN}, tenant: bench, subject: bench }] }`,
      'sessions: { maxConcurrentRequestsPerPrincipal: 10000, maxConcurrentRequests: 10000,',
      '  maxSessionsPerPrincipal: 1000, maxSessions: 1000 }',
      'agents: { stream: { model: scripted/stream }, quick: { model: scripted/quick } }',
    ].join('\n'),
  );
  const server = await startServer(
    config,
    {},
    {
      runtime: {
        scriptedModels: {
          stream: () => pacedModel(DELTAS, DELTA_INTERVAL_MS),
          quick: () => pacedModel(1, 0),
        },
      },
    },
  );
  process.once('SIGTERM', () => {
    void server
      .close()
      .finally(() => rm(dataDir, { recursive: true, force: true }).finally(() => process.exit(0)));
  });
  return server.url;
}

/** The floor: per session, its open streams; a message plays the run's events to them. */
async function floor(): Promise<string> {
  const app = Fastify({ logger: false });
  const streams = new Map<string, Set<ServerResponse>>();
  let sessions = 0;
  app.post('/v1/sessions', async (_request, reply) => {
    const sessionId = `sess-${(sessions += 1)}`;
    streams.set(sessionId, new Set());
    return reply.code(201).send({ sessionId, eventsUrl: `/v1/sessions/${sessionId}/events` });
  });
  app.get<{ Params: { id: string } }>('/v1/sessions/:id/events', (request, reply) => {
    const open = streams.get(request.params.id);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    response.write('event: Ready\ndata: {}\n\n');
    open?.add(response);
    response.once('close', () => open?.delete(response));
  });
  app.post<{ Params: { id: string } }>('/v1/sessions/:id/messages', async (request, reply) => {
    void play(request.params.id, streams.get(request.params.id) ?? new Set());
    return reply.code(202).send();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

let floorSeq = 0;

async function play(sessionId: string, open: Set<ServerResponse>): Promise<void> {
  const runId = `run-${(floorSeq += 1)}`;
  const base = () => ({ sessionId, runId, turnIndex: 0, timestamp: Date.now() });
  const send = (type: string, fields: object) => {
    floorSeq += 1;
    const frame = `id: ${floorSeq}\nevent: ${type}\ndata: ${JSON.stringify({ type, ...base(), ...fields })}\n\n`;
    for (const response of open) response.write(frame);
  };
  send('RunStarted', {});
  send('UserMessageReceived', {
    message: { role: 'user', content: 'go', inlineFiles: [], fileReferences: [] },
  });
  for (let i = 0; i < DELTAS; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, DELTA_INTERVAL_MS));
    send('AssistantText', { text: DELTA_TEXT });
  }
  send('TurnEnded', { reason: 'END_TURN', usage: {}, cost: '0' });
  send('RunEnded', { result: { type: 'Success', result: DELTA_TEXT.repeat(DELTAS) } });
}

const mode = process.argv[2];
const url = mode === 'helios' ? await helios() : mode === 'floor' ? await floor() : undefined;
if (url === undefined) throw new Error(`usage: server.ts helios|floor, got ${mode}`);
process.stdout.write(`LISTENING ${url}\n`);
