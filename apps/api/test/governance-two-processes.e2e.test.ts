/**
 * Budgets are atomic across processes: two real API processes on ONE PostgreSQL database take 200
 * concurrent evaluate+audit pairs (100 evaluated by each, audited by the other) against a budget that
 * admits 50, and exactly 50 are charged — in the budget counter, in the ledger and in the audit trail —
 * with nothing left held.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EmbeddedPostgres } from '@helios/persistence';
import { freePort } from '@helios/persistence/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, waitForUrl, type ApiProcess } from './support/api-process.js';
import { externalTarget, externalUrl, tempDir } from './support/databases.js';

const TOKEN = 'two-processes-adapter-token-000000000001';
const PAIRS = 200;
const ADMITTED = 50;

/** One database both processes share: a scratch one on DATABASE_URL, else one embedded server. */
async function sharedDatabase(): Promise<{ url: string; dispose(): Promise<void> }> {
  if (externalUrl) {
    const target = await externalTarget(externalUrl);
    return { url: target.database.url as string, dispose: () => target.dispose() };
  }
  const server = await EmbeddedPostgres.start({
    dataDir: await tempDir(),
    logger: { info: () => undefined, warn: () => undefined },
  });
  return { url: server.url, dispose: () => server.stop() };
}

async function apiConfig(sdkPort: number): Promise<string> {
  const dir = await tempDir();
  const policy = join(dir, 'helio.yaml');
  await writeFile(
    policy,
    `version: '1'
sdk: { enabled: true, port: ${sdkPort} }
budgets:
  - name: pot
    limit: ${ADMITTED}
    currency: USD
    window: 1h
    contributors: [ { match: { tool: pay }, field: amount } ]
`,
  );
  const config = join(dir, 'helios.yaml');
  await writeFile(config, `governance:\n  policy: ${policy}\n  sweepIntervalMs: 1000\n`);
  return config;
}

describe('two API processes on one database', () => {
  let database: { url: string; dispose(): Promise<void> };
  const apis: ApiProcess[] = [];
  const adapters: string[] = [];
  let client: pg.Client;

  beforeAll(async () => {
    database = await sharedDatabase();
    // One after the other: the first applies the migrations, the second finds them applied.
    for (let i = 0; i < 2; i += 1) {
      const sdkPort = await freePort();
      const env = {
        DATABASE_URL: database.url,
        HELIOS_CONFIG: await apiConfig(sdkPort),
        HELIO_ADAPTER_TOKEN: TOKEN,
      };
      apis.push(await startApi(await freePort(), env));
      adapters.push(`http://127.0.0.1:${sdkPort}`);
      await waitForUrl(`${adapters[i]}/healthz`, 10_000);
    }
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    for (const api of apis) {
      if (api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGTERM');
      await api.exited;
    }
    await database?.dispose();
  });

  const post = (adapter: string, path: string, body: unknown) =>
    fetch(`${adapter}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

  it(`${PAIRS} evaluate+audit pairs (${PAIRS - 20} of them at once) against a budget of ${ADMITTED} charge exactly ${ADMITTED}`, async () => {
    const pair = async (i: number) => {
      const adapter = adapters[i % 2] as string;
      const evaluated = await post(adapter, '/evaluate', {
        tool: { name: 'pay' },
        arguments: { amount: 1, i },
      });
      if (evaluated.body.decision !== 'allow') return { decision: evaluated.body.decision, i };
      // Audited by the OTHER process: pending evaluations and holds live in the shared database.
      const auditor = adapters[(i + 1) % 2] as string;
      const audited = await post(auditor, '/audit', {
        evaluation_id: evaluated.body.evaluation_id,
        status: 'success',
      });
      expect(audited.status).toBe(201);
      return { decision: 'charged', i, auditRecordId: audited.body.audit_record_id };
    };
    // Each process batches the calls that arrive together, so one batch could take every slot: an
    // opening wave of 20 (which both processes win, whichever locks the pot first), then the rest at
    // once racing for the remaining 30.
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => from + n);
    const opening = await Promise.all(range(0, 20).map(pair));
    const outcomes = [...opening, ...(await Promise.all(range(20, PAIRS).map(pair)))];
    const charged = outcomes.filter((o) => o.decision === 'charged');
    expect(charged).toHaveLength(ADMITTED);
    expect(outcomes.filter((o) => o.decision === 'budget_exceeded')).toHaveLength(PAIRS - ADMITTED);
    // Both processes admitted some: the pot really was contended across processes.
    expect(new Set(charged.map((o) => o.i % 2)).size).toBe(2);

    // The one counter both processes check and charge.
    const counter = await client.query<{ spent: string; held: number }>(
      `SELECT (SELECT coalesce(sum(c.amount), 0)::text FROM limit_charge_entries c JOIN limit_buckets b USING (bucket_id)
               WHERE b.family = 'budget' AND b.bucket_key = 'budget:pot:global') AS spent,
              (SELECT count(*)::int FROM limit_holds) AS held`,
    );
    expect(counter.rows[0]).toEqual({ spent: String(ADMITTED * 1_000_000), held: 0 });
    // The ledger: one spend row per charged call, each naming that call's audit record.
    const ledger = await client.query<{ audit_record_id: string; kind: string; amount: string }>(
      `SELECT audit_record_id, kind, amount::text AS amount FROM budget_events WHERE budget_name = 'pot'`,
    );
    expect(ledger.rows.every((row) => row.kind === 'spend' && row.amount === '1000000')).toBe(true);
    expect(ledger.rows.map((row) => row.audit_record_id).sort()).toEqual(
      charged.map((o) => o.auditRecordId).sort(),
    );
    // The trail: every call has one record; exactly the charged ones went through.
    await expect
      .poll(
        async () =>
          (
            await client.query<{ block_reason: string | null; n: number }>(
              `SELECT block_reason, count(*)::int AS n FROM audit_records WHERE tool_name = 'pay'
               GROUP BY block_reason ORDER BY block_reason NULLS FIRST`,
            )
          ).rows,
        { timeout: 5_000 },
      )
      .toEqual([
        { block_reason: null, n: ADMITTED },
        { block_reason: 'budget_exceeded', n: PAIRS - ADMITTED },
      ]);
    // Either process now sees the pot full.
    for (const adapter of adapters) {
      const next = await post(adapter, '/evaluate', { tool: { name: 'pay' }, arguments: { amount: 1 } });
      expect(next.body).toMatchObject({ decision: 'budget_exceeded' });
      expect(
        (next.body as unknown as { limits: { budgets: { spent: number }[] } }).limits.budgets[0]?.spent,
      ).toBe(ADMITTED);
    }
  });
});
