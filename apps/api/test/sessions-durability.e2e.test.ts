/**
 * Durable sessions on the real app: a session of an agent with `store: postgres` (or `file`) is
 * reopened by its owner after the API restarts — same id, same principal — and carries on its
 * conversation, a question it was waiting on included. Nobody else can reopen it, and a memory agent's
 * session does not outlive its process.
 */
import { toolCall } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  embeddedTarget,
  externalTarget,
  externalUrl,
  tempDir,
  type DatabaseTarget,
} from './support/databases.js';
import { type SessionsApp, type SessionsAppOptions, startSessionsApp } from './support/sessions-app.js';

const ALICE = 'alice-durable-token-0001';
const BOB = 'bob-durable-token-000001';
const models: ScriptedModel[] = [];
let target: DatabaseTarget;
let options: SessionsAppOptions;
let app: SessionsApp;

function scripted(make: () => ScriptedModel): () => ScriptedModel {
  return () => {
    const model = make();
    models.push(model);
    return model;
  };
}

beforeAll(async () => {
  target = externalUrl ? await externalTarget(externalUrl) : await embeddedTarget();
  const workspace = await tempDir('helios-durable-workspace-');
  options = {
    target,
    yaml:
      `auth:\n  tokens:\n    - { token: ${ALICE}, tenant: acme, subject: alice }\n` +
      `    - { token: ${BOB}, tenant: acme, subject: bob }\n` +
      'agents:\n' +
      '  keeper: { model: scripted/talk, store: postgres }\n' +
      '  filer: { model: scripted/talk, store: file }\n' +
      '  forgetful: { model: scripted/talk }\n' +
      `  asker: { model: scripted/ask, store: postgres, preset: workspace, workspace: ${workspace},` +
      ' permission: { ask: ["MemoryWrite(**)"] } }\n',
    runtime: {
      scriptedModels: {
        talk: scripted(() => new ScriptedModel().thenText('first answer').thenText('second answer')),
        ask: scripted(() =>
          new ScriptedModel()
            .thenToolCalls([
              toolCall('w1', 'MemoryWrite', { op: 'create', path: '/memories/a.md', content: 'a\n' }),
            ])
            .thenText('written after the restart'),
        ),
      },
    },
  };
  app = await startSessionsApp(options);
});

afterAll(async () => {
  await app?.close();
  await target?.dispose();
});

async function restart(): Promise<void> {
  await app.close();
  app = await startSessionsApp(options);
}

async function talk(id: string, text: string): Promise<string> {
  expect(
    (await app.request('POST', `/v1/sessions/${id}/messages`, { token: ALICE, body: { text } })).status,
  ).toBe(202);
  const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=10`, { token: ALICE });
  expect(result.status).toBe(200);
  return result.body.result.result as string;
}

describe('a durable session', () => {
  it('carries on its conversation after a restart, for its owner only', async () => {
    const ids: Record<string, string> = {};
    for (const agent of ['keeper', 'filer', 'forgetful']) {
      ids[agent] = (
        await app.request('POST', '/v1/sessions', { token: ALICE, body: { agent } })
      ).body.sessionId;
      expect(await talk(ids[agent] as string, `remember 42 (${agent})`)).toBe('first answer');
    }
    await restart();
    for (const agent of ['keeper', 'filer']) {
      const id = ids[agent] as string;
      expect(
        (await app.request('POST', '/v1/sessions', { token: BOB, body: { agent, sessionId: id } })).status,
      ).toBe(404);
      const reopened = await app.request('POST', '/v1/sessions', {
        token: ALICE,
        body: { agent, sessionId: id },
      });
      expect(reopened).toMatchObject({ status: 201, body: { sessionId: id } });
      // Reopening a live one answers the same session.
      expect(
        (await app.request('POST', '/v1/sessions', { token: ALICE, body: { agent, sessionId: id } })).body
          .sessionId,
      ).toBe(id);
      expect(await talk(id, 'what did I ask you to remember?')).toBe('first answer'); // a new model's script
      const model = models.at(-1) as ScriptedModel;
      const seen = (model.calls[0] ?? []).map((m) => `${m.role}:${m.content}`);
      expect(seen).toEqual([
        `user:remember 42 (${agent})`,
        'assistant:first answer',
        'user:what did I ask you to remember?',
      ]);
    }
    const forgotten = await app.request('POST', '/v1/sessions', {
      token: ALICE,
      body: { agent: 'forgetful', sessionId: ids.forgetful },
    });
    expect(forgotten).toMatchObject({ status: 404, body: { error: 'SESSION_NOT_FOUND' } });
    const unknown = await app.request('POST', '/v1/sessions', {
      token: ALICE,
      body: { agent: 'keeper', sessionId: 'sess-01a23390-0000-7000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
  });

  it('ends a run the shutdown cut short as Cancelled, and carries on after it', async () => {
    const id = (await app.request('POST', '/v1/sessions', { token: ALICE, body: { agent: 'asker' } })).body
      .sessionId;
    const events = await app.events(id, { token: ALICE });
    await app.request('POST', `/v1/sessions/${id}/messages`, { token: ALICE, body: { text: 'write it' } });
    await events.waitForEvent('QuestionAsked');
    // A graceful stop closes every session: the waiting run ends Cancelled, its question with it.
    const closing = events.waitForEvent('RunEnded');
    await restart();
    expect((await closing).data.result).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
    expect(
      (await app.request('POST', '/v1/sessions', { token: ALICE, body: { agent: 'asker', sessionId: id } }))
        .status,
    ).toBe(201);
    expect((await app.request('GET', `/v1/sessions/${id}/questions`, { token: ALICE })).body).toEqual([]);
    await app.request('POST', `/v1/sessions/${id}/messages`, { token: ALICE, body: { text: 'try again' } });
    const model = models.at(-1) as ScriptedModel;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const seen = (model.calls[0] ?? []).map((m) => m.role);
    // The stored conversation: the first message, the call (answered as blocked: its question was
    // cancelled with the run), then the new message.
    expect(seen).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(model.calls[0]?.[0]?.content).toBe('write it');
    expect(model.calls[0]?.[2]?.content).toMatch(/^blocked by hook: permission: question/);
  });
});
