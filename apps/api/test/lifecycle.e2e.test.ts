/**
 * The app's lifetime through Nest's hooks, on the real app against real PostgreSQL: a start that fails
 * after the database opened (the adapter API's port is taken) tears down what it started, and a
 * graceful stop closes the database last, after governance has drained its audit trail.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type HeliosConfig } from '../src/config/config.schema.js';
import { startServer } from '../src/server.js';
import { externalTarget, externalUrl, tempDir, type DatabaseTarget } from './support/databases.js';

const ADAPTER = 'lifecycle-adapter-token-000000000001';
const SDK = 'lifecycle-sdk-token-00000000000000001';
const tokens = { HELIO_ADAPTER_TOKEN: ADAPTER, HELIO_SDK_TOKEN: SDK };

async function configWithPolicy(target: DatabaseTarget, adapterPort: number): Promise<HeliosConfig> {
  const file = join(await tempDir(), 'helio.yaml');
  await writeFile(
    file,
    `version: '1'\nsdk: { enabled: true, port: ${adapterPort} }\npolicies:\n  default: allow\n`,
  );
  const config = parseConfig('server:\n  port: 0\nlog:\n  level: error\n');
  return {
    ...config,
    database: { ...config.database, ...target.database },
    governance: { ...config.governance, policy: file },
  };
}

/** Connections the API's pool holds on the target database. */
async function apiConnections(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'helios-api'`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

describe.skipIf(!externalUrl)('the app lifecycle on real PostgreSQL', () => {
  let target: DatabaseTarget;
  let squatter: Server;
  let takenPort: number;

  beforeAll(async () => {
    target = await externalTarget(externalUrl as string);
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    takenPort = (squatter.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => squatter?.close(resolve));
    await target?.dispose();
  });

  it('a start that fails after the database opened closes the pool it opened', async () => {
    const config = await configWithPolicy(target, takenPort);
    await expect(startServer(config, tokens)).rejects.toThrow(`cannot listen on 127.0.0.1:${takenPort}`);
    expect(await apiConnections(target.database.url as string)).toBe(0);
  });

  it('a graceful stop drains the audit trail before it closes the database', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const server = await startServer(await configWithPolicy(target, port), tokens);
    const adapter = server.governance?.listener?.url ?? '';
    const post = (path: string, body: unknown) =>
      fetch(`${adapter}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADAPTER}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const decided = await post('/evaluate', { tool: { name: 'read' }, arguments: { i } });
      expect(decided.status).toBe(200);
      const audited = await post('/audit', { evaluation_id: decided.body.evaluation_id, status: 'success' });
      expect(audited.status).toBe(201);
      ids.push(audited.body.audit_record_id as string);
    }
    expect(await apiConnections(target.database.url as string)).toBeGreaterThan(0);
    await server.close();
    // Every answered audit is in the table (the buffered ones were written before the pool closed).
    const client = new Client({ connectionString: target.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM audit_records WHERE id = ANY($1)',
        [ids],
      );
      expect(Number(rows[0]?.n)).toBe(ids.length);
    } finally {
      await client.end();
    }
    expect(await apiConnections(target.database.url as string)).toBe(0);
  });
});
