/**
 * An in-process API with a governance policy, its adapter listener on a real port, real PostgreSQL
 * (the DATABASE_URL server when set, else an embedded one) and a manual clock injected into the engine,
 * so conformance tests cross TTLs and deadlines without waiting.
 */
import { request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '@helios/persistence/testing';
import { parseConfig } from '../../src/config/load-config.js';
import { type HeliosConfig } from '../../src/config/config.schema.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { embeddedTarget, externalTarget, externalUrl, tempDir } from './databases.js';

export const ADAPTER_TOKEN = 'conformance-adapter-token-00000000000001';
export const SDK_TOKEN = 'conformance-sdk-token-000000000000000001';

export class ManualClock {
  constructor(public ms = Date.now()) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Reply {
  readonly status: number;
  // Loosely typed on purpose: tests assert on shapes with toMatchObject.
  readonly body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface GovernanceApp {
  readonly url: string;
  readonly clock: ManualClock;
  readonly server: RunningServer;
  post(path: string, body: unknown, token?: string): Promise<Reply>;
  get(path: string, token?: string): Promise<Reply>;
  /** Raw HTTP: any method, headers and body text (fetch refuses some headers and methods). */
  raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** `policy` receives the adapter port; `limits` go to `governance.limits`. */
export async function startGovernanceApp(
  policy: (port: number) => string,
  limits: HeliosConfig['governance']['limits'] = {},
): Promise<GovernanceApp> {
  const target = externalUrl ? await externalTarget(externalUrl) : await embeddedTarget();
  const port = await freePort();
  const file = join(await tempDir(), 'helio.yaml');
  await writeFile(file, policy(port));
  const config = parseConfig('server:\n  port: 0\nlog:\n  level: error\n');
  const clock = new ManualClock();
  let server: RunningServer;
  try {
    server = await startServer(
      {
        ...config,
        database: { ...config.database, ...target.database },
        governance: { ...config.governance, policy: file, sweepIntervalMs: 100, limits },
      },
      { HELIO_ADAPTER_TOKEN: ADAPTER_TOKEN, HELIO_SDK_TOKEN: SDK_TOKEN },
      { governance: { clock } },
    );
  } catch (error) {
    await target.dispose();
    throw error;
  }
  const url = server.governance?.listener?.url ?? '';
  const raw = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Reply['body']) : {} }),
        );
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  const json = { 'content-type': 'application/json' };
  return {
    url,
    clock,
    server,
    raw,
    post: (path, body, token = ADAPTER_TOKEN) =>
      raw('POST', path, { ...json, authorization: `Bearer ${token}` }, JSON.stringify(body)),
    get: (path, token = SDK_TOKEN) => raw('GET', path, { authorization: `Bearer ${token}` }),
    query: (sql, params = []) => server.database.dataSource.query(sql, params),
    async close() {
      await server.close();
      await target.dispose();
    },
  };
}
