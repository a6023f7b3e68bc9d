import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { migrateDown, migrateUp } from '../src/persistence/database.js';
import { startServer, type RunningServer } from '../src/server.js';
import { targetFactories, type DatabaseTarget } from './support/databases.js';

async function boot(target: DatabaseTarget, graceMs = 10_000): Promise<RunningServer> {
  const config = parseConfig(`server:\n  port: 0\n  shutdownGraceMs: ${graceMs}\nlog:\n  level: error\n`);
  return startServer({ ...config, database: { ...config.database, ...target.database } });
}

/** Holds an exclusive lock on the migrations table, so readiness checks block until it is released. */
async function lockMigrations(server: RunningServer): Promise<() => Promise<void>> {
  const runner = server.database.dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query('LOCK TABLE "migrations" IN ACCESS EXCLUSIVE MODE');
  return async () => {
    // During shutdown the pool may already have ended this connection, which also drops the lock.
    if (runner.isReleased) return;
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release().catch(() => undefined);
  };
}

describe.each(targetFactories)('the API on the %s database', (_name, makeTarget) => {
  let target: DatabaseTarget;
  let server: RunningServer;

  beforeAll(async () => {
    target = await makeTarget();
    server = await boot(target);
  });

  afterAll(async () => {
    await server?.close();
    await target?.dispose();
  });

  it('answers /healthz and /readyz', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok' });
  });

  it('reports version, database kind and the instance row on /v1/status', async () => {
    const res = await fetch(`${server.url}/v1/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'helios',
      version: '0.1.0',
      database: { kind: target.name, ready: true, reason: null },
      instance: { startCount: 1 },
    });
    expect((body.instance as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves a valid OpenAPI 3 document at /docs-json and Swagger UI at /docs', async () => {
    const doc = (await (await fetch(`${server.url}/docs-json`)).json()) as { openapi: string; paths: object };
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/v1/status']));
    const ui = await fetch(`${server.url}/docs`);
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toContain('text/html');
  });

  it('documents the governance adapter API at /docs/adapter-json', async () => {
    const response = await fetch(`${server.url}/docs/adapter-json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: object };
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/evaluate',
        '/audit',
        '/approval/{id}/resolve',
        '/session/{session_id}/state',
      ]),
    );
    expect((await fetch(`${server.url}/docs/adapter`)).status).toBe(200);
  });

  it('gives every response a request id, keeping a well-formed one from the caller', async () => {
    const mine = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-42.a:b');
    const forged = await fetch(`${server.url}/healthz`, {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await fetch(`${server.url}/nope`);
    expect(none.status).toBe(404);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves many concurrent requests that each hit the database', async () => {
    const poolSize = server.config.database.poolSize;
    const responses = await Promise.all(
      Array.from({ length: poolSize * 5 }, () => fetch(`${server.url}/v1/status`).then((r) => r.status)),
    );
    expect(responses).toEqual(Array(poolSize * 5).fill(200));
    const backends = await Promise.all(
      Array.from({ length: poolSize }, () =>
        server.database.dataSource.query('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)'),
      ),
    );
    expect(new Set(backends.map((rows: { pid: number }[]) => rows[0]?.pid)).size).toBeGreaterThan(1);
  });

  it('is not ready while a migration is pending, and ready again once applied', async () => {
    const { dataSource } = server.database;
    expect(await migrateDown(dataSource)).toBe(true);
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'unavailable',
      reason: '1 database migration(s) pending',
    });
    const status = (await (await fetch(`${server.url}/v1/status`)).json()) as {
      database: object;
      instance: unknown;
    };
    expect(status.database).toEqual({
      kind: target.name,
      ready: false,
      reason: '1 database migration(s) pending',
    });
    expect(status.instance).toBeNull();
    expect(await migrateUp(dataSource)).toHaveLength(1);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('lets an in-flight request finish during a graceful close', async () => {
    const unlock = await lockMigrations(server);
    const inFlight = fetch(`${server.url}/readyz`);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const closing = server.close();
    await new Promise((r) => setTimeout(r, 300));
    await unlock();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await closing;
    // Ends with the last response, not at the end of the 10 s grace period.
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    server = await boot(target);
  });

  it('cuts requests still running when the grace period is over', async () => {
    await server.close();
    server = await boot(target, 300);
    const unlock = await lockMigrations(server);
    const inFlight = fetch(`${server.url}/readyz`).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const closing = server.close();
    expect(await inFlight).toBeInstanceOf(Error);
    await unlock();
    await closing;
    expect(Date.now() - started).toBeLessThan(8_000);
    server = await boot(target);
  });

  it('keeps its data across a restart on the same database', async () => {
    const before = (await (await fetch(`${server.url}/v1/status`)).json()) as { instance: { id: string } };
    await server.close();
    expect((await fetch(`${server.url}/healthz`).catch((e: unknown) => e)) instanceof Error).toBe(true);
    server = await boot(target);
    const after = (await (await fetch(`${server.url}/v1/status`)).json()) as {
      instance: { id: string; startCount: number };
    };
    expect(after.instance.id).toBe(before.instance.id);
    expect(after.instance.startCount).toBeGreaterThanOrEqual(2);
  });
});
