/**
 * Attacks on the main API and what its logs reveal, performed on the real app (in process, real
 * PostgreSQL, its adapter listener on): connection floods and slow requests, unparseable requests,
 * probes while the database is down, credentials in headers, and SQL faults carrying a caller's data.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from 'nestjs-pino';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { freePort } from '@helios/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/config-error.js';
import { parseConfig } from '../src/config/load-config.js';
import { startServer, type RunningServer } from '../src/server.js';
import {
  embeddedTarget,
  externalTarget,
  externalUrl,
  tempDir,
  type DatabaseTarget,
} from './support/databases.js';
import { parseResponse, rawConnection, rawRequest, timed, type RawConnection } from './support/raw-http.js';

const ADAPTER = 'api-hardening-adapter-token-000000001';
const SDK = 'api-hardening-sdk-token-0000000000001';
const LIMITS = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 1_000,
  keepAliveTimeoutMs: 400,
  maxConnections: 20,
};

/** Every log line the server writes, app and boot logger alike. */
const lines: string[] = [];
const logDestination = { write: (line: string) => void lines.push(line) };

async function policyFile(sdkPort: number): Promise<string> {
  const file = join(await tempDir(), 'helio.yaml');
  await writeFile(
    file,
    `version: '1'\nsdk: { enabled: true, port: ${sdkPort} }\npolicies:\n  default: allow\n`,
  );
  return file;
}

let target: DatabaseTarget;
let server: RunningServer;
let adapterUrl: string;

beforeAll(async () => {
  target = externalUrl ? await externalTarget(externalUrl) : await embeddedTarget();
  const config = parseConfig(
    `server:\n  port: 0\n${Object.entries(LIMITS)
      .map(([key, value]) => `  ${key}: ${value}\n`)
      .join('')}log:\n  level: info\n`,
  );
  server = await startServer(
    {
      ...config,
      database: { ...config.database, ...target.database },
      governance: { ...config.governance, policy: await policyFile(await freePort()) },
    },
    { HELIO_ADAPTER_TOKEN: ADAPTER, HELIO_SDK_TOKEN: SDK },
    { logDestination },
  );
  adapterUrl = server.governance?.listener?.url ?? '';
});

afterAll(async () => {
  await server?.close();
  await target?.dispose();
});

describe('connections on the main API', () => {
  it('closes a connection left with headers plus one body byte after the request timeout', async () => {
    // Nest answers before reading a body it has no use for; the connection still waits for the rest.
    const connection = await rawConnection(
      server.url,
      'GET /healthz HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{',
    );
    const { ms, value } = await timed(connection.closed);
    expect(parseResponse(value).status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(ms).toBeLessThan(LIMITS.requestTimeoutMs + 1_500);
  });

  it('answers 408 in Nest shape when the headers never end', async () => {
    const connection = await rawConnection(server.url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n');
    expect(parseResponse(await connection.closed)).toEqual({
      status: 408,
      body: JSON.stringify({
        message: 'Request not received in time',
        error: 'Request Timeout',
        statusCode: 408,
      }),
    });
  });

  it('cuts off a trickled body and headers that never end', async () => {
    const trickled = await rawConnection(
      server.url,
      'POST /v1/status HTTP/1.1\r\nhost: x\r\ncontent-length: 10000\r\n\r\n',
    );
    const trickle = setInterval(() => trickled.write('x'), 50);
    const endless = await rawConnection(server.url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n');
    const headers = setInterval(() => endless.write('x-a: b\r\n'), 50);
    const [body, head] = await Promise.all([timed(trickled.closed), timed(endless.closed)]);
    clearInterval(trickle);
    clearInterval(headers);
    expect(body.ms).toBeLessThan(LIMITS.requestTimeoutMs + 1_500);
    expect(head.ms).toBeLessThan(LIMITS.headersTimeoutMs + 1_500);
  });

  it('refuses connections past the cap, serves the one it had, and serves again once attackers time out', async () => {
    const legit = await rawConnection(server.url);
    const attackers: RawConnection[] = await Promise.all(
      Array.from({ length: LIMITS.maxConnections - 1 }, () =>
        rawConnection(server.url, 'POST /healthz HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{'),
      ),
    );
    try {
      const extra = await rawConnection(server.url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
      const refused = await timed(extra.closed);
      expect(refused.value).toBe('');
      expect(refused.ms).toBeLessThan(500);
      legit.write('GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      expect(parseResponse(await legit.closed)).toEqual({ status: 200, body: '{"status":"ok"}' });
      await Promise.all(attackers.map((attacker) => attacker.closed));
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      for (const attacker of attackers) attacker.destroy();
    }
  });
});

describe('requests the parser or router refuses, in Nest shape', () => {
  it('answers a 20,000-character path with 414', async () => {
    const reply = await rawRequest(server.url, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
    expect(reply).toEqual({
      status: 414,
      body: JSON.stringify({ message: 'Request URI too long', error: 'URI Too Long', statusCode: 414 }),
    });
  });

  it('answers bad percent-encoding with 400, without echoing the path', async () => {
    const reply = await rawRequest(
      server.url,
      'GET /docs/%zz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
    );
    expect(reply).toEqual({
      status: 400,
      body: JSON.stringify({ message: 'Malformed request', error: 'Bad Request', statusCode: 400 }),
    });
  });

  it('answers oversized headers with 431', async () => {
    const reply = await rawRequest(
      server.url,
      `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(reply.status).toBe(431);
    expect(JSON.parse(reply.body)).toMatchObject({
      error: 'Request Header Fields Too Large',
      statusCode: 431,
    });
  });
});

describe('probes while the database is down', () => {
  it('/readyz and /v1/status give a generic reason; the driver error goes to the log once', async () => {
    const { dataSource } = server.database;
    const closedPort = await freePort();
    const original = dataSource.query.bind(dataSource);
    // What the pool meets when the server is gone: the real driver's error, naming host and port.
    dataSource.query = (async () => {
      const client = new pg.Client({ host: '127.0.0.1', port: closedPort, user: 'u', database: 'd' });
      await client.connect();
      throw new Error('unreachable');
    }) as typeof dataSource.query;
    const before = lines.length;
    try {
      for (let probe = 0; probe < 5; probe++) {
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        const body = await ready.text();
        expect(JSON.parse(body)).toEqual({ status: 'unavailable', reason: 'database unreachable' });
        const status = await (await fetch(`${server.url}/v1/status`)).text();
        expect(JSON.parse(status)).toMatchObject({
          database: { ready: false, reason: 'database unreachable' },
        });
        for (const text of [body, status]) {
          expect(text).not.toContain(String(closedPort));
          expect(text).not.toContain('127.0.0.1');
          expect(text).not.toContain('ECONNREFUSED');
        }
      }
      const logged = lines
        .slice(before)
        .filter((line) => line.includes(`ECONNREFUSED 127.0.0.1:${closedPort}`));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('database check failed');
    } finally {
      dataSource.query = original;
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(lines.some((line) => line.includes('database check passes again'))).toBe(true);
  });
});

describe('log lines', () => {
  it('redact proxy-authorization as well as authorization and cookies', async () => {
    const before = lines.length;
    await fetch(`${server.url}/v1/status`, {
      headers: {
        'x-request-id': 'proxy-auth-1',
        'proxy-authorization': 'Basic cHJveHktc2VjcmV0LTQy',
        authorization: 'Bearer bearer-secret-42',
        cookie: 'sid=cookie-secret-42',
      },
    });
    await new Promise((r) => setTimeout(r, 50));
    const line = lines.slice(before).find((l) => l.includes('"proxy-auth-1"'));
    expect(line).toBeDefined();
    const headers = (JSON.parse(line as string) as { req: { headers: Record<string, string> } }).req.headers;
    expect(headers['proxy-authorization']).toBe('[redacted]');
    expect(headers.authorization).toBe('[redacted]');
    expect(headers.cookie).toBe('[redacted]');
    expect(line).not.toMatch(/cHJveHktc2VjcmV0LTQy|bearer-secret-42|cookie-secret-42/);
  });

  it('never carry the values of a failed SQL statement (the adapter API fault log)', async () => {
    const secret = 'SECRET-SENDER-7f3a9c';
    const { dataSource } = server.database;
    // The database refuses the evaluation and, as PostgreSQL does for a unique violation, quotes the
    // row in its error's detail; the statement's parameters carry it too.
    await dataSource.query(`
      CREATE OR REPLACE FUNCTION refuse_pending() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'pending evaluation refused' USING DETAIL = NEW.payload::text; END $$`);
    await dataSource.query(
      'CREATE TRIGGER refuse_pending BEFORE INSERT ON pending_evaluations FOR EACH ROW EXECUTE FUNCTION refuse_pending()',
    );
    const before = lines.length;
    try {
      const answer = await fetch(`${adapterUrl}/evaluate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADAPTER}` },
        body: JSON.stringify({ tool: { name: 'ok' }, session_id: 's-log', metadata: { sender_id: secret } }),
      });
      expect(answer.status).toBe(500);
      expect(await answer.text()).not.toContain(secret);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await dataSource.query('DROP TRIGGER refuse_pending ON pending_evaluations');
      await dataSource.query('DROP FUNCTION refuse_pending()');
    }
    const logged = lines.slice(before);
    const fault = logged.find((line) => line.includes('governance adapter API fault'));
    expect(fault).toBeDefined();
    expect(fault).toContain('pending evaluation refused');
    expect(logged.join('\n')).not.toContain(secret);
  });

  it('never carry the parameters of a QueryFailedError logged through Nest (as its exception filter does)', async () => {
    const secret = 'SECRET-PARAM-19d0c2';
    const { dataSource } = server.database;
    const error = await dataSource
      .query(`SELECT $1::varchar(4) AS v, 1 / 0 AS boom WHERE $2::text IS NOT NULL`, ['abcd', secret])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(JSON.stringify((error as QueryFailedError).parameters)).toContain(secret);
    const before = lines.length;
    server.app.get(Logger).error(error);
    await new Promise((r) => setTimeout(r, 50));
    const line = lines.slice(before).join('\n');
    expect(line).toContain('QueryFailedError');
    expect(line).toContain('division by zero');
    expect(line).toContain('22012');
    expect(line).not.toContain(secret);
  });
});

describe('adapter API tokens at start', () => {
  it('refuses identical or short tokens before touching the database, naming the variable only', async () => {
    const config = parseConfig('server:\n  port: 0\nlog:\n  level: silent\n');
    const never = { ...config.database, url: 'postgres://u:p@127.0.0.1:1/never-used' };
    const policy = await policyFile(await freePort());
    for (const [env, variable] of [
      [
        { HELIO_ADAPTER_TOKEN: 'same-token-in-both-scopes', HELIO_SDK_TOKEN: 'same-token-in-both-scopes' },
        'HELIO_SDK_TOKEN',
      ],
      [{ HELIO_ADAPTER_TOKEN: 'x', HELIO_SDK_TOKEN: SDK }, 'HELIO_ADAPTER_TOKEN'],
    ] as const) {
      const error = await startServer(
        { ...config, database: never, governance: { ...config.governance, policy } },
        { ...env },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(variable);
      expect((error as Error).message).not.toContain(env.HELIO_ADAPTER_TOKEN);
    }
  });
});
