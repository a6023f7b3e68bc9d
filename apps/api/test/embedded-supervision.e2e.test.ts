/**
 * The API owns the embedded PostgreSQL it started: when the postmaster dies under it (kill -9), it starts
 * it again (crash recovery replays the WAL), readiness says 503 meanwhile and 200 after, governance fails
 * closed in between and loses no audit it answered 201 for. A SIGTERM of the API stops the server for
 * good: an expected stop is not a crash.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  embeddedSuperuserClient,
  freePort,
  isAlive,
  waitForExit,
  LOCK_FILE,
} from '@helios/persistence/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, waitForUrl, type ApiProcess } from './support/api-process.js';
import { embeddedTarget, tempDir } from './support/databases.js';

const TOKEN = 'supervision-adapter-token-0000000000001';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function configFile(sdkPort: number): Promise<string> {
  const dir = await tempDir();
  const policy = join(dir, 'helio.yaml');
  // A rate limit on the probe tool: its bucket is decided in the API's memory (the local limit authority).
  await writeFile(
    policy,
    `version: '1'\nsdk: { enabled: true, port: ${sdkPort} }\npolicies:\n  default: allow\n  rules:\n` +
      `    - { name: probe-rate, match: { tool: supervision-probe }, action: rate_limit, ` +
      `limits: { max_calls: 1000000, window: 1h } }\n`,
  );
  const config = join(dir, 'helios.yaml');
  await writeFile(config, `governance:\n  policy: ${policy}\n`);
  return config;
}

interface Lock {
  readonly postgresPid: number;
}

/** The owners of the probe's rate bucket (none while it is shared), and its charges. */
async function probeBucket(dataDir: string): Promise<{ owner: string | null; charges: number }> {
  const client = await embeddedSuperuserClient(dataDir);
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string | null; charges: number }>(
      `SELECT b."owner", (SELECT count(*)::int FROM "limit_charge_entries" e WHERE e."bucket_id" = b."bucket_id") AS "charges"
       FROM "limit_buckets" b WHERE b."bucket_key" = 'tool:supervision-probe:rule:0'`,
    );
    return rows[0] ?? { owner: null, charges: 0 };
  } finally {
    await client.end();
  }
}

async function readLock(dataDir: string): Promise<Lock> {
  return JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8')) as Lock;
}

/** Polls /readyz until it answers `status` (bounded); returns how long that took. */
async function readinessBecomes(api: ApiProcess, status: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const answer = await fetch(`${api.url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (answer === status) return Date.now() - started;
    await sleep(50);
  }
  throw new Error(`/readyz did not answer ${status} within ${timeoutMs} ms:\n${api.output()}`);
}

describe('the embedded PostgreSQL under a running API', () => {
  it('is restarted after kill -9, readiness recovers and no answered audit is lost', async () => {
    const target = await embeddedTarget();
    cleanups.push(() => target.dispose());
    const sdkPort = await freePort();
    const api = await startApi(await freePort(), {
      ...target.env,
      HELIOS_CONFIG: await configFile(sdkPort),
      HELIO_ADAPTER_TOKEN: TOKEN,
      LOG_LEVEL: 'info',
    });
    cleanups.push(async () => {
      if (api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGTERM');
      await api.exited;
    });
    const adapter = `http://127.0.0.1:${sdkPort}`;
    await waitForUrl(`${adapter}/healthz`, 10_000);
    const post = (path: string, body: unknown) =>
      fetch(`${adapter}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

    const audited = new Map<number, string>(); // n → audit_record_id of an audit answered 201
    const otherDecisions: unknown[] = []; // the policy allows all; down, the engine answers 5xx
    let n = 0;
    let running = true;
    const worker = async () => {
      while (running) {
        const i = (n += 1);
        try {
          const evaluated = await post('/evaluate', {
            tool: { name: 'supervision-probe' },
            arguments: { n: i },
          });
          if (evaluated.status !== 200) {
            if (evaluated.status < 500) otherDecisions.push(`status ${evaluated.status}`);
            await sleep(20); // failing closed while the database is down
            continue;
          }
          if (evaluated.body.decision !== 'allow') otherDecisions.push(evaluated.body.decision);
          const audit = await post('/audit', {
            evaluation_id: evaluated.body.evaluation_id,
            status: 'success',
          });
          if (audit.status === 201) audited.set(i, audit.body.audit_record_id as string);
        } catch {
          await sleep(20); // a request cut by the outage
        }
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, worker));
    await sleep(1_000);
    const before = await readLock(target.database.dataDir);
    // The server runs with an allow-listed environment: the API's secrets are not in it.
    const environ = await readFile(`/proc/${before.postgresPid}/environ`, 'utf8');
    expect(environ).not.toContain(TOKEN);
    expect(environ).not.toContain('HELIO_ADAPTER_TOKEN');
    const auditedBeforeCrash = audited.size;
    const ownerBefore = (await probeBucket(target.database.dataDir)).owner;
    expect(ownerBefore).not.toBeNull();
    process.kill(before.postgresPid, 'SIGKILL');
    expect(await waitForExit(before.postgresPid, 5_000)).toBe(true);

    await readinessBecomes(api, 503, 5_000);
    const recoveredIn = await readinessBecomes(api, 200, 30_000);
    const after = await readLock(target.database.dataDir);
    expect(after.postgresPid).not.toBe(before.postgresPid);
    expect(isAlive(after.postgresPid)).toBe(true);
    expect(api.output()).toMatch(/embedded PostgreSQL \(pid \d+\) exited unexpectedly .*restart attempt 1/);

    // Governance answers again: the load completes whole rounds after the restart.
    const auditedAtRecovery = audited.size;
    const deadline = Date.now() + 15_000;
    while (audited.size < auditedAtRecovery + 20 && Date.now() < deadline) await sleep(100);
    // The limit authority lost its lease with the server; it hands its bucket back and rejoins under a
    // new owner, which claims the bucket again on the next calls.
    const reclaimed = async () => {
      const { owner } = await probeBucket(target.database.dataDir);
      return owner !== null && owner !== ownerBefore;
    };
    // Its own bound: the rejoin's pause grows while the server restarts, and a loaded machine is slow.
    const claimDeadline = Date.now() + 30_000;
    let wasReclaimed = await reclaimed();
    while (!wasReclaimed && Date.now() < claimDeadline) {
      await sleep(100);
      wasReclaimed = await reclaimed();
    }
    running = false;
    await load;
    expect(otherDecisions).toEqual([]);
    expect(auditedBeforeCrash).toBeGreaterThan(10);
    expect(audited.size).toBeGreaterThanOrEqual(auditedAtRecovery + 20);

    // Every audit answered 201, before or after the crash, is in the database once.
    const client = await embeddedSuperuserClient(target.database.dataDir);
    await client.connect();
    const { rows } = await client.query<{ id: string }>(
      `SELECT id::text AS id FROM audit_records WHERE tool_name = 'supervision-probe' AND record_kind = 'tool_call'`,
    );
    // The API holds no superuser credentials: its pool, also after the restart, is the application role's.
    const roles = await client.query<{ usename: string; rolsuper: boolean }>(
      `SELECT DISTINCT a.usename, r.rolsuper FROM pg_stat_activity a JOIN pg_roles r ON r.rolname = a.usename
        WHERE a.application_name = 'helios-api'`,
    );
    await client.end();
    expect(roles.rows).toEqual([{ usename: 'helios_app', rolsuper: false }]);
    const stored = new Set(rows.map((row) => row.id));
    const missing = [...audited.values()].filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    // Decided in memory again (for a while at least: a claim that met contention keeps the bucket
    // shared for a cooldown), and no call recorded went uncharged.
    expect(api.output()).toMatch(/limit authority rejoined as owner/);
    const authorityLog = api
      .output()
      .split('\n')
      .filter((line) => line.includes('limit authority'))
      .join('\n');
    expect(wasReclaimed, authorityLog).toBe(true);
    expect((await probeBucket(target.database.dataDir)).charges).toBeGreaterThanOrEqual(stored.size);
    console.info(`readiness recovered ${recoveredIn} ms after the kill; ${audited.size} audits answered 201`);

    // An expected stop is not a crash: SIGTERM stops the server and nothing starts it again.
    api.child.kill('SIGTERM');
    expect((await api.exited).code).toBe(0);
    expect(await waitForExit(after.postgresPid, 5_000)).toBe(true);
    await expect(readLock(target.database.dataDir)).rejects.toThrow(/ENOENT/);
    expect(api.output()).not.toMatch(/restart attempt 2/);
  });
});
