/**
 * The runtime API as its OpenAPI document describes it, on the real app with no configuration at all
 * (the built-in scripted demo agent, the local principal on a loopback bind): `/docs-json` validates as
 * OpenAPI 3 and is the committed document, the typed client generated from it is the one committed
 * here, and that client drives a whole demo session — a file read, a permission question answered,
 * the answer.
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import createClient from 'openapi-fetch';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type paths } from './support/api-schema.js';
import { type SessionsApp, startSessionsApp } from './support/sessions-app.js';

const workspace = resolve(import.meta.dirname, '../../..');
let app: SessionsApp;
let document: Record<string, unknown>;

beforeAll(async () => {
  app = await startSessionsApp();
  document = (await (await fetch(`${app.url}/docs-json`)).json()) as Record<string, unknown>;
});

afterAll(async () => {
  await app?.close();
});

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3, declares the security schemes and documents every runtime route', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const components = document.components as { securitySchemes: Record<string, unknown> };
    expect(Object.keys(components.securitySchemes)).toEqual(['bearer', 'trustedProxy']);
    const documented = document.paths as Record<
      string,
      Record<string, { security?: unknown; responses: object }>
    >;
    const routes = Object.entries(documented).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    const runtime = routes.filter(({ route }) => / \/v1\/(sessions|agents)/.test(route));
    expect(runtime.map((r) => r.route).sort()).toEqual([
      'DELETE /v1/sessions/{id}',
      'GET /v1/agents',
      'GET /v1/sessions',
      'GET /v1/sessions/{id}/events',
      'GET /v1/sessions/{id}/questions',
      'GET /v1/sessions/{id}/result',
      'POST /v1/sessions',
      'POST /v1/sessions/{id}/interrupt',
      'POST /v1/sessions/{id}/messages',
      'POST /v1/sessions/{id}/questions/{questionId}',
    ]);
    for (const { route, operation } of runtime) {
      expect({ route, security: operation.security }).toEqual({
        route,
        security: [{ bearer: [] }, { trustedProxy: [] }],
      });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429', '503']));
    }
  });

  it('is the committed document, and the committed client types are generated from it', async () => {
    const committed = JSON.parse(await readFile(join(workspace, 'docs/api/openapi.json'), 'utf8')) as unknown;
    expect(document).toEqual(committed);
    const dir = await mkdtemp(join(tmpdir(), 'helios-openapi-'));
    try {
      await writeFile(join(dir, 'openapi.json'), JSON.stringify(document));
      const generator = join(workspace, 'node_modules/.bin/openapi-typescript');
      await promisify(execFile)(generator, [join(dir, 'openapi.json'), '-o', join(dir, 'api-schema.ts')]);
      const options = await prettier.resolveConfig(join(import.meta.dirname, 'support/api-schema.ts'));
      const fresh = await prettier.format(await readFile(join(dir, 'api-schema.ts'), 'utf8'), {
        ...options,
        parser: 'typescript',
      });
      // Regenerate: npx openapi-typescript docs/api/openapi.json -o apps/api/test/support/api-schema.ts && npx prettier --write apps/api/test/support/api-schema.ts
      expect(await readFile(join(import.meta.dirname, 'support/api-schema.ts'), 'utf8')).toBe(fresh);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a client generated from it', () => {
  it('drives a whole demo session: create, message, the permission question, the answer', async () => {
    const client = createClient<paths>({ baseUrl: app.url });
    const agents = await client.GET('/v1/agents');
    expect(agents.data).toEqual([
      { name: 'demo', model: 'scripted/demo', preset: 'workspace', scripted: true, store: 'memory' },
    ]);
    const created = await client.POST('/v1/sessions', { body: { agent: 'demo' } });
    expect(created.response.status).toBe(201);
    const sessionId = created.data?.sessionId as string;
    const path = { id: sessionId };
    const sent = await client.POST('/v1/sessions/{id}/messages', {
      params: { path },
      body: { text: 'show me' },
    });
    expect(sent.response.status).toBe(202);
    let questionId: string | undefined;
    for (let i = 0; i < 100 && questionId === undefined; i += 1) {
      const pending = await client.GET('/v1/sessions/{id}/questions', { params: { path } });
      questionId = pending.data?.[0]?.questionId;
      if (questionId === undefined) await new Promise((r) => setTimeout(r, 50));
      else expect(pending.data?.[0]).toMatchObject({ header: 'Permission', multiSelect: false });
    }
    expect(questionId).toMatch(/^perm-/);
    const answered = await client.POST('/v1/sessions/{id}/questions/{questionId}', {
      params: { path: { id: sessionId, questionId: questionId as string } },
      body: { selectedLabels: ['Allow'] },
    });
    expect(answered.response.status).toBe(202);
    const result = await client.GET('/v1/sessions/{id}/result', {
      params: { path, query: { timeout: '10' } },
    });
    expect(result.data?.type).toBe('Success');
    expect(String(result.data?.result.result)).toContain('I read welcome.md');
    const listed = await client.GET('/v1/sessions');
    expect(listed.data?.find((s) => s.sessionId === sessionId)).toMatchObject({
      agent: 'demo',
      status: 'finished',
      turns: 3,
      lastResult: 'Success',
    });
    const deleted = await client.DELETE('/v1/sessions/{id}', { params: { path } });
    expect(deleted.response.status).toBe(204);
    const gone = await client.GET('/v1/sessions/{id}/questions', { params: { path } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: 'SESSION_NOT_FOUND', message: 'session not found' });
  });
});
