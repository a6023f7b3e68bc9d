/**
 * An agent with `execution: javascript` over HTTP (issue 23's SandboxModule): the session starts its own
 * sandbox at open, its Execute calls keep state between snippets, another session's sandbox does not see
 * it, and the server's shutdown kills every sandbox.
 */
import { toolCall } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { ExecutionProviders } from '../src/sandbox/execution-providers.js';
import { type SessionsApp, startSessionsApp } from './support/sessions-app.js';

let app: SessionsApp;

function coderModel(): ScriptedModel {
  return new ScriptedModel()
    .thenToolCalls([
      toolCall('x1', 'Execute', { runtime: 'JAVASCRIPT', script: 'const base = 20; base + 22' }),
    ])
    .thenToolCalls([
      toolCall('x2', 'Execute', { runtime: 'TYPESCRIPT', script: 'const n: number = base * 2; n' }),
    ])
    .thenText('computed');
}

function peekerModel(): ScriptedModel {
  return new ScriptedModel()
    .thenToolCalls([toolCall('p1', 'Execute', { runtime: 'JAVASCRIPT', script: 'typeof base' })])
    .thenText('looked');
}

beforeAll(async () => {
  app = await startSessionsApp({
    yaml:
      `sandbox:\n  javascript:\n    maxConcurrentSandboxes: 2\n` +
      `agents:\n` +
      `  coder:\n    model: scripted/coder\n    execution: javascript\n    permission: { allow: ["Execute"] }\n` +
      `  peeker:\n    model: scripted/peeker\n    execution: javascript\n    permission: { allow: ["Execute"] }\n`,
    runtime: { scriptedModels: { coder: coderModel, peeker: peekerModel } },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function runToEnd(agent: string): Promise<{ id: string; results: string[] }> {
  const created = await app.request('POST', '/v1/sessions', { body: { agent } });
  expect(created.status).toBe(201);
  const id = created.body.sessionId as string;
  const events = await app.events(id);
  expect((await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'go' } })).status).toBe(
    202,
  );
  const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=30`);
  expect(result.body).toMatchObject({ type: 'Success' });
  // The result answered after the run's last event: every ToolResult is in the log by now.
  await events.waitForEvent('RunEnded', 5_000);
  // Each Execute answer: the `[runtime R exit N duration Xms]` header, then what the snippet printed and its value.
  const results = events.named('ToolResult').map((event) => String(event.data.result.output));
  events.close();
  return { id, results };
}

describe('agents with execution: javascript', () => {
  it('run snippets in the session own sandbox, keeping top-level state between calls', async () => {
    const { results } = await runToEnd('coder');
    expect(results).toHaveLength(2);
    expect(results[0]).toMatch(/^\[runtime JAVASCRIPT exit 0 duration \d+ms\]\n=> 42$/);
    expect(results[1]).toMatch(/^\[runtime TYPESCRIPT exit 0 duration \d+ms\]\n=> 40$/);
  }, 60_000);

  it('keep sessions apart: another session does not see the first one state', async () => {
    const { results } = await runToEnd('peeker');
    expect(results[0]).toMatch(/\n=> undefined$/);
  }, 60_000);

  it('refuse a session past the sandbox cap at open, and end every sandbox at shutdown', async () => {
    const providers = app.server.app.get(ExecutionProviders);
    const provider = providers.get('javascript') as unknown as { sandboxCount: number };
    // Both finished sessions still hold their sandboxes (they end when the sessions close).
    expect(provider.sandboxCount).toBe(2);
    const third = await app.request('POST', '/v1/sessions', { body: { agent: 'coder' } });
    expect(third.status).toBe(503);
    expect(third.body).toMatchObject({ error: 'SESSION_UNAVAILABLE' });
    expect(third.body.message).toMatch(/all 2 sandboxes are in use/);
    await app.close();
    expect(provider.sandboxCount).toBe(0);
  }, 60_000);
});

describe('execution: bash', () => {
  it('is refused at start unless the deployer enabled the local process provider', () => {
    const yaml = `agents:\n  shell:\n    model: scripted/demo\n    execution: bash\n`;
    expect(() => parseConfig(yaml, {})).toThrow(/agents\.shell\.execution.*sandbox\.bash\.enabled/s);
    expect(() => parseConfig(`sandbox:\n  bash:\n    enabled: true\n${yaml}`, {})).not.toThrow();
  });
});
