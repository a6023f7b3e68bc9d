/**
 * A session's whole life over HTTP on the real app (in process, real PostgreSQL, scripted models):
 * create, a permission question answered over HTTP, steering mid-run, interrupt, the long poll's timeout
 * and success, delete while running, and the fixed refusals of each route.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { toolCall } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRegistry } from '../src/sessions/registry/session-registry.js';
import { tempDir } from './support/databases.js';
import { type SessionsApp, startSessionsApp } from './support/sessions-app.js';

let app: SessionsApp;
let workspace: string;
const made: Record<string, ScriptedModel[]> = { asker: [], slow: [], broken: [] };

/** Streams `parts` text deltas `delayMs` apart, then answers `then` (the steered turn). */
function slowModel(): ScriptedModel {
  const parts = Array.from({ length: 40 }, (_, i) => `part ${i} `);
  return new ScriptedModel().thenText(parts, { chunkDelayMs: 25 }).thenText('steered answer');
}

beforeAll(async () => {
  workspace = await tempDir('helios-workspace-');
  app = await startSessionsApp({
    yaml:
      `agents:\n` +
      `  asker:\n    model: scripted/asker\n    preset: workspace\n    workspace: ${workspace}\n` +
      `    permission: { allow: ["MemoryRead(**)"], ask: ["MemoryWrite(**)"] }\n` +
      `  slow:\n    model: scripted/slow\n` +
      `  broken:\n    model: scripted/broken\n`,
    runtime: {
      scriptedModels: {
        asker: () => {
          const model = new ScriptedModel()
            .thenToolCalls([
              toolCall('w1', 'MemoryWrite', { op: 'create', path: '/memories/note.md', content: 'hi\n' }),
            ])
            .thenText('noted');
          made.asker?.push(model);
          return model;
        },
        slow: () => {
          const model = slowModel();
          made.slow?.push(model);
          return model;
        },
        broken: () => new ScriptedModel().thenError(new RangeError('a bug in the model adapter')),
      },
    },
  });
});

afterAll(async () => {
  await app?.close();
});

async function create(agent: string): Promise<string> {
  const created = await app.request('POST', '/v1/sessions', { body: { agent } });
  expect(created.status).toBe(201);
  return created.body.sessionId as string;
}

describe('a session over HTTP', () => {
  it('is created from a named agent, listed, and shows the agents without keys', async () => {
    const agents = await app.request('GET', '/v1/agents');
    expect(agents.body).toEqual([
      { name: 'asker', model: 'scripted/asker', preset: 'workspace', scripted: true, store: 'memory' },
      { name: 'slow', model: 'scripted/slow', preset: 'minimal', scripted: true, store: 'memory' },
      { name: 'broken', model: 'scripted/broken', preset: 'minimal', scripted: true, store: 'memory' },
    ]);
    const created = await app.request('POST', '/v1/sessions', { body: { agent: 'slow' } });
    expect(created.status).toBe(201);
    expect(created.body.sessionId).toMatch(/^sess-[0-9a-f-]{36}$/);
    expect(created.body.eventsUrl).toBe(`/v1/sessions/${created.body.sessionId}/events`);
    const listed = await app.request('GET', '/v1/sessions');
    expect(listed.body[0]).toMatchObject({
      sessionId: created.body.sessionId,
      agent: 'slow',
      status: 'idle',
      turns: 0,
      costMicroUsd: '0',
      lastResult: null,
      pendingQuestions: 0,
    });
  });

  it('asks a permission question, answered over HTTP, and then runs the tool', async () => {
    const id = await create('asker');
    const events = await app.events(id);
    expect(
      (await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'note it' } })).status,
    ).toBe(202);
    const asked = await events.waitForEvent('QuestionAsked');
    const questions = await app.request('GET', `/v1/sessions/${id}/questions`);
    expect(questions.body).toEqual([asked.data.request]);
    const [question] = questions.body as {
      questionId: string;
      header: string;
      options: { label: string }[];
    }[];
    expect(question?.questionId).toMatch(/^perm-/);
    expect(question?.header).toBe('Permission');
    expect(question?.options.map((o) => o.label)).toEqual(['Allow', 'Deny']);
    const path = `/v1/sessions/${id}/questions/${question?.questionId}`;
    expect(await app.request('POST', path, { body: { selectedLabels: [] } })).toMatchObject({
      status: 400,
      body: { error: 'INVALID_REQUEST' },
    });
    expect(
      await app.request('POST', `/v1/sessions/${id}/questions/perm-nope`, {
        body: { selectedLabels: ['Allow'] },
      }),
    ).toMatchObject({
      status: 404,
      body: { error: 'QUESTION_NOT_PENDING' },
    });
    expect(
      (await app.request('POST', path, { body: { selectedLabels: ['Allow'], customText: '' } })).status,
    ).toBe(202);
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=10`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      type: 'Success',
      result: { type: 'Success', result: 'noted', sessionId: id },
    });
    const toolResult = await events.waitForEvent('ToolResult');
    expect(toolResult.data.result.type).toBe('Success');
    await access(join(workspace, '.agent/memory/note.md'));
    expect((await app.request('POST', path, { body: { selectedLabels: ['Allow'] } })).status).toBe(404);
    expect((await app.request('GET', `/v1/sessions/${id}/questions`)).body).toEqual([]);
    const listed = (await app.request('GET', '/v1/sessions')).body.find(
      (s: { sessionId: string }) => s.sessionId === id,
    );
    expect(listed).toMatchObject({ status: 'finished', turns: 2, lastResult: 'Success' });
    events.close();
  });

  it('steers the run in progress with a second message', async () => {
    const id = await create('slow');
    const events = await app.events(id);
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'start' } });
    await events.waitForEvent('AssistantText');
    expect(
      (await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'and also this' } })).status,
    ).toBe(202);
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=20`);
    expect(result.body).toMatchObject({ type: 'Success', result: { result: 'steered answer' } });
    // One run: the steering message joined it, and the model's second turn saw it.
    expect(events.named('RunStarted')).toHaveLength(1);
    const model = made.slow?.at(-1) as ScriptedModel;
    const lastCall = model.calls.at(-1) ?? [];
    expect(lastCall.some((m) => m.role === 'user' && m.content === 'and also this')).toBe(true);
    events.close();
  });

  it('interrupts the run in progress and stays open', async () => {
    const id = await create('slow');
    const events = await app.events(id);
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'start' } });
    await events.waitForEvent('AssistantText');
    const interrupted = await app.request('POST', `/v1/sessions/${id}/interrupt`);
    expect(interrupted).toMatchObject({ status: 202, body: { interrupted: true } });
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=10`);
    expect(result.body).toMatchObject({ type: 'Cancelled', result: { reason: 'interrupted' } });
    expect((await app.request('POST', `/v1/sessions/${id}/interrupt`)).body).toEqual({ interrupted: false });
    const summary = (await app.request('GET', '/v1/sessions')).body.find(
      (s: { sessionId: string }) => s.sessionId === id,
    );
    expect(summary.status).toBe('finished');
    events.close();
  });

  it('long-polls: 204 at the timeout with nothing to report, the result once the run ends', async () => {
    const id = await create('slow');
    const started = Date.now();
    const empty = await app.request('GET', `/v1/sessions/${id}/result?timeout=0.3`);
    expect(empty.status).toBe(204);
    expect(empty.text).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect((await app.request('GET', `/v1/sessions/${id}/result?timeout=0`)).status).toBe(204);
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'go' } });
    const waiting = app.request('GET', `/v1/sessions/${id}/result?timeout=0.2`);
    expect((await waiting).status).toBe(204); // the run takes ~1 s
    const done = await app.request('GET', `/v1/sessions/${id}/result?timeout=30`);
    expect(done.status).toBe(200);
    expect(done.body.type).toBe('Success');
    // Finished: answered at once, again.
    expect((await app.request('GET', `/v1/sessions/${id}/result?timeout=30`)).body).toEqual(done.body);
  });

  it('is deleted while running: the run ends Cancelled, the stream ends, the id is gone', async () => {
    const id = await create('slow');
    const events = await app.events(id);
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'start' } });
    await events.waitForEvent('AssistantText');
    expect((await app.request('DELETE', `/v1/sessions/${id}`)).status).toBe(204);
    const ended = await events.waitForEvent('RunEnded');
    expect(ended.data.result).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
    await events.ended;
    expect((await app.request('GET', `/v1/sessions/${id}/result`)).body).toEqual({
      error: 'SESSION_NOT_FOUND',
      message: 'session not found',
    });
    expect((await app.request('DELETE', `/v1/sessions/${id}`)).status).toBe(404);
    const listed = (await app.request('GET', '/v1/sessions')).body as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).not.toContain(id);
  });

  it('answers 500 for a run that failed with a bug, then 409 to everything that needs the session open', async () => {
    const id = await create('broken');
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'go' } });
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=10`);
    expect(result).toMatchObject({
      status: 500,
      body: { error: 'SESSION_FAILED', message: 'session terminated abnormally' },
    });
    const refused = await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'again' } });
    expect(refused).toMatchObject({ status: 409, body: { error: 'SESSION_CLOSED' } });
    expect((await app.request('POST', `/v1/sessions/${id}/interrupt`)).status).toBe(409);
    expect(
      (
        await app.request('POST', `/v1/sessions/${id}/questions/perm-x`, {
          body: { selectedLabels: ['Allow'] },
        })
      ).status,
    ).toBe(409);
    expect((await app.request('GET', `/v1/sessions/${id}/questions`)).body).toEqual([]);
  });
});

describe('fixed refusals', () => {
  it('answers an invalid body 400 naming the field, never its value', async () => {
    const id = await create('slow');
    const blank = await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: '   ' } });
    expect(blank).toMatchObject({
      status: 400,
      body: { error: 'INVALID_REQUEST', message: 'text must be a non-blank string' },
    });
    const extra = await app.request('POST', `/v1/sessions/${id}/messages`, {
      body: { text: 'x', secretly: 'y' },
    });
    expect(extra.body.error).toBe('INVALID_REQUEST');
    expect(extra.text).not.toContain('"y"');
    const notJson = await app.request('POST', `/v1/sessions/${id}/messages`, {
      body: '{"text": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await app.request('POST', '/v1/sessions', { body: { agent: 'nobody' } })).body).toEqual({
      error: 'AGENT_NOT_FOUND',
      message: 'no agent of that name',
    });
    expect((await app.request('POST', '/v1/sessions', { body: {} })).status).toBe(400);
  });

  it('answers an unknown session the same fixed 404 on every route', async () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/v1/sessions/sess-unknown/messages', { text: 'x' }],
      ['POST', '/v1/sessions/sess-unknown/interrupt'],
      ['GET', '/v1/sessions/sess-unknown/events'],
      ['GET', '/v1/sessions/sess-unknown/result?timeout=0'],
      ['GET', '/v1/sessions/sess-unknown/questions'],
      ['POST', '/v1/sessions/sess-unknown/questions/perm-1', { selectedLabels: ['Allow'] }],
      ['DELETE', '/v1/sessions/sess-unknown'],
    ];
    for (const [method, path, body] of routes) {
      const reply = await app.request(method, path, body === undefined ? {} : { body });
      expect({ path, status: reply.status, body: reply.body }).toEqual({
        path,
        status: 404,
        body: { error: 'SESSION_NOT_FOUND', message: 'session not found' },
      });
    }
  });
});

describe('retention', () => {
  it('closes a session not running once it has been idle for the retention, never a running one', async () => {
    const registry = app.server.app.get(SessionRegistry);
    const retentionMs = app.server.config.sessions.retentionMs;
    expect(retentionMs).toBe(15 * 60_000);
    const idle = await create('slow');
    const running = await create('slow');
    const events = await app.events(running);
    await app.request('POST', `/v1/sessions/${running}/messages`, { body: { text: 'go' } });
    await events.waitForEvent('AssistantText');
    const now = Date.now();
    registry.sweep(now + retentionMs - 1_000);
    expect((await app.request('GET', `/v1/sessions/${idle}/questions`)).status).toBe(200);
    registry.sweep(now + retentionMs);
    expect((await app.request('GET', `/v1/sessions/${idle}/questions`)).status).toBe(404);
    expect((await app.request('GET', `/v1/sessions/${running}/questions`)).status).toBe(200);
    await app.request('GET', `/v1/sessions/${running}/result?timeout=10`);
    const finished = Date.now();
    registry.sweep(finished + retentionMs - 1_000);
    expect((await app.request('GET', `/v1/sessions/${running}/questions`)).status).toBe(200);
    registry.sweep(finished + retentionMs + 1_000);
    expect((await app.request('GET', `/v1/sessions/${running}/questions`)).status).toBe(404);
    await events.ended;
  });
});
