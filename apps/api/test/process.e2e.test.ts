/**
 * The real `node dist/main.js` process: configuration errors, start-up failures, signals, the embedded
 * database's ownership and orphan recovery, and the migrate CLI.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { migrations } from '@helios/migrations';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, isAlive, waitForExit } from '@helios/persistence/testing';
import { apiMain, migrateCli, runNode, startApi, type ApiProcess } from './support/api-process.js';
import { embeddedTarget, externalUrl, tempDir, type DatabaseTarget } from './support/databases.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function embedded(): Promise<DatabaseTarget> {
  const target = await embeddedTarget();
  cleanups.push(() => target.dispose());
  return target;
}

function stopOnCleanup(api: ApiProcess): ApiProcess {
  cleanups.push(async () => {
    if (api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGTERM');
    await api.exited;
  });
  return api;
}

async function lockFile(dataDir: string): Promise<{ ownerPid: number; postgresPid: number; port: number }> {
  return JSON.parse(await readFile(join(dataDir, 'embedded-postgres.lock'), 'utf8')) as never;
}

async function configFile(yaml: string): Promise<string> {
  const dir = await tempDir();
  const path = join(dir, 'helios.yaml');
  await writeFile(path, yaml);
  return path;
}

/** No stack frames: a user reads a message, not a dump. */
function expectNoStack(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('configuration errors stop the process with a clear message', () => {
  it('an unknown key', async () => {
    const result = await runNode(apiMain, [], { HELIOS_CONFIG: await configFile('server:\n  prot: 8080\n') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid configuration');
    expect(result.stderr).toContain('server.prot: unknown setting');
    expectNoStack(result.stderr);
  });

  it('a wrong type', async () => {
    const result = await runNode(apiMain, [], {
      HELIOS_CONFIG: await configFile('server:\n  port: eighty\n'),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/server\.port: .*expected number/);
    expectNoStack(result.stderr);
  });

  it('a malformed DATABASE_URL, without echoing its password', async () => {
    const result = await runNode(apiMain, [], { DATABASE_URL: 'mysql://admin:hunter22@db/x' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'DATABASE_URL (environment, overrides database.url): not a valid PostgreSQL URL',
    );
    expect(result.stderr).not.toContain('hunter22');
    expectNoStack(result.stderr);
  });

  it('an invalid governance policy, every problem by path, before anything starts', async () => {
    const dir = await tempDir();
    const policy = join(dir, 'helio.yaml');
    await writeFile(
      policy,
      "version: '1'\npolicies:\n  defualt: allow\n  rules:\n    - { name: r, match: { tool: t }, action: maybe }\nsdk: { port: 0 }\n",
    );
    const result = await runNode(apiMain, [], {
      HELIO_POLICY: policy,
      DATABASE_URL: 'postgres://127.0.0.1:1/never-used',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid governance policy (${policy})`);
    expect(result.stderr).toContain('policies.defualt: unknown key');
    expect(result.stderr).toContain('policies.rules[0].action');
    expect(result.stderr).toContain('sdk.port');
    expect(result.stderr).not.toContain('cannot connect'); // the database was never tried
    expectNoStack(result.stderr);
  });

  it('an unreachable database', async () => {
    const port = await freePort();
    const result = await runNode(apiMain, [], {
      DATABASE_URL: `postgres://u:hunter22@127.0.0.1:${port}/helios`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot connect to the database at 127.0.0.1:${port}/helios`);
    expect(result.stderr).not.toContain('hunter22');
    expectNoStack(result.stderr);
  });

  it('a port already in use, leaving no embedded database behind', async () => {
    const target = await embedded();
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
    cleanups.push(() => new Promise((r) => blocker.close(r)));
    const result = await runNode(apiMain, [], { ...target.env, HOST: '127.0.0.1', PORT: String(port) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: address already in use`);
    expectNoStack(result.stderr);
    await expect(lockFile(target.database.dataDir)).rejects.toThrow(/ENOENT/);
  });
});

describe('the embedded database', () => {
  it('stops cleanly with the API on SIGTERM', async () => {
    const target = await embedded();
    const api = stopOnCleanup(await startApi(await freePort(), target.env));
    const { postgresPid } = await lockFile(target.database.dataDir);
    expect(isAlive(postgresPid)).toBe(true);
    api.child.kill('SIGTERM');
    const result = await api.exited;
    expect(result.code).toBe(0);
    expect(await waitForExit(postgresPid, 5_000)).toBe(true);
    await expect(lockFile(target.database.dataDir)).rejects.toThrow(/ENOENT/);
  });

  it('left running by a killed API is recovered at the next start, data intact', async () => {
    const target = await embedded();
    const first = stopOnCleanup(await startApi(await freePort(), target.env));
    const firstStatus = (await (await fetch(`${first.url}/v1/status`)).json()) as {
      instance: { id: string };
    };
    const { postgresPid: orphan } = await lockFile(target.database.dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(orphan)).toBe(true); // the crash left it behind

    const second = stopOnCleanup(await startApi(await freePort(), target.env));
    expect(await waitForExit(orphan, 5_000)).toBe(true);
    expect(second.output()).toContain(`stopping orphaned embedded PostgreSQL (pid ${orphan})`);
    const status = (await (await fetch(`${second.url}/v1/status`)).json()) as {
      instance: { id: string; startCount: number };
    };
    expect(status.instance).toMatchObject({ id: firstStatus.instance.id, startCount: 2 });
  });

  it('refuses a data directory owned by another running API', async () => {
    const target = await embedded();
    const owner = stopOnCleanup(await startApi(await freePort(), target.env));
    const result = await runNode(apiMain, [], { ...target.env, PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`is in use by process ${owner.child.pid}`);
    expect((await fetch(`${owner.url}/readyz`)).status).toBe(200);
  });
});

describe('logs', () => {
  it('are JSON lines naming each request by its id, with credentials redacted', async () => {
    const target = await embedded();
    const api = stopOnCleanup(await startApi(await freePort(), { ...target.env, LOG_LEVEL: 'info' }));
    await fetch(`${api.url}/v1/status`, {
      headers: { 'x-request-id': 'req-log-1', authorization: 'Bearer hunter22' },
    });
    api.child.kill('SIGTERM');
    const { stdout } = await api.exited;
    const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    const entries = lines.map(
      (line) => JSON.parse(line) as { req?: { id?: string; headers?: Record<string, string> } },
    );
    const request = entries.find((entry) => entry.req?.id === 'req-log-1');
    expect(request?.req?.headers?.authorization).toBe('[redacted]');
    expect(stdout).not.toContain('hunter22');
  });
});

describe('the migrate CLI', () => {
  it.each([
    ['embedded', false],
    ['external', true],
  ] as const)('reverts and re-applies migrations on the %s database', async (_name, external) => {
    if (external && !externalUrl) return; // covered when DATABASE_URL is set (CI)
    const target = external
      ? await (await import('./support/databases.js')).externalTarget(externalUrl as string)
      : await embedded();
    if (external) cleanups.push(() => target.dispose());
    expect((await runNode(migrateCli, ['up'], target.env)).stdout).toContain(
      'applied: InstanceMetadata1764460800000',
    );
    expect((await runNode(migrateCli, ['up'], target.env)).stdout).toContain('no pending migrations');
    for (let i = 0; i < migrations.length; i++) {
      expect((await runNode(migrateCli, ['down'], target.env)).stdout).toContain(
        'reverted the last migration',
      );
    }
    expect((await runNode(migrateCli, ['down'], target.env)).stdout).toContain('nothing to revert');
    const up = await runNode(migrateCli, ['up'], target.env);
    expect(up.code).toBe(0);
    expect(up.stdout).toContain('applied: InstanceMetadata1764460800000');
  });

  it('rejects an unknown direction', async () => {
    const result = await runNode(migrateCli, ['sideways'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: migrate.js up|down');
  });
});
