/**
 * Crash safety of the governance trail and its counters: an API process under evaluate/audit load on a
 * budgeted tool (every call holds and then charges the pot) is killed with SIGKILL; after a restart on
 * the same database every evaluation it ever answered has exactly one audit record — the audit's own
 * when the audit was answered, else an `evaluation_expired` one — nothing stays pending, every answered
 * audit's charge is in the pot with its ledger row, no hold counts past the TTL, and the pot's running
 * sums are its rows' sums.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { embeddedSuperuserClient, freePort } from '@helios/persistence/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, waitForUrl, type ApiProcess } from './support/api-process.js';
import { targetFactories, tempDir, type DatabaseTarget } from './support/databases.js';

const TOKEN = 'crash-test-adapter-token-000000000000001';

async function configFiles(sdkPort: number): Promise<string> {
  const dir = await tempDir();
  const policy = join(dir, 'helio.yaml');
  await writeFile(
    policy,
    `version: '1'\nsdk: { enabled: true, port: ${sdkPort}, evaluation_ttl: 2s }\n` +
      `budgets:\n  - { name: pot, limit: 1000000, currency: USD, window: 1h, ` +
      `contributors: [ { match: { tool: crash-probe }, field: amount } ] }\n`,
  );
  const config = join(dir, 'helios.yaml');
  await writeFile(config, `governance:\n  policy: ${policy}\n  sweepIntervalMs: 200\n`);
  return config;
}

/** A client of a target's database: the external one, or the embedded server the API recorded in its lock. */
function databaseClient(target: DatabaseTarget): Promise<pg.Client> {
  if (target.database.url) return Promise.resolve(new pg.Client({ connectionString: target.database.url }));
  return embeddedSuperuserClient(target.database.dataDir);
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe.each(targetFactories)('governance after kill -9 (%s database)', (_name, makeTarget) => {
  it('accounts for every evaluation it answered', async () => {
    const target = await makeTarget();
    cleanups.push(() => target.dispose());
    const sdkPort = await freePort();
    const env = { ...target.env, HELIOS_CONFIG: await configFiles(sdkPort), HELIO_ADAPTER_TOKEN: TOKEN };
    const stop = (api: ApiProcess) => async () => {
      if (api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGTERM');
      await api.exited;
    };

    const first = await startApi(await freePort(), env);
    cleanups.push(stop(first));
    const adapter = `http://127.0.0.1:${sdkPort}`;
    await waitForUrl(`${adapter}/healthz`, 10_000);
    const post = (path: string, body: unknown) =>
      fetch(`${adapter}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));

    const answered = new Set<number>(); // evaluations whose /evaluate answer reached us
    const audited = new Map<number, string>(); // n → audit_record_id of an answered 201
    let n = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const i = (n += 1);
        try {
          const evaluated = await post('/evaluate', {
            tool: { name: 'crash-probe' },
            arguments: { n: i, amount: 1 },
          });
          answered.add(i);
          if (i % 2 === 0) continue; // left unaudited: must expire
          const audit = await post('/audit', {
            evaluation_id: evaluated.body.evaluation_id,
            status: 'success',
          });
          if (audit.status === 201) audited.set(i, audit.body.audit_record_id as string);
        } catch {
          return; // the process is gone
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((r) => setTimeout(r, 1_500));
    first.child.kill('SIGKILL');
    killed = true;
    await load;
    await first.exited;
    expect(answered.size).toBeGreaterThan(50);

    const second = await startApi(await freePort(), env);
    cleanups.push(stop(second));
    const client = await databaseClient(target);
    await client.connect();
    cleanups.push(() => client.end());
    // Unaudited evaluations expire after the 2 s TTL, swept every 200 ms.
    const deadline = Date.now() + 30_000;
    while ((await client.query('SELECT count(*)::int AS n FROM pending_evaluations')).rows[0].n > 0) {
      if (Date.now() > deadline) throw new Error('evaluations still pending 30 s after the restart');
      await new Promise((r) => setTimeout(r, 200));
    }
    const { rows } = await client.query<{ n: number; id: string; kind: string }>(
      `SELECT (tool_input->>'n')::int AS n, id::text AS id, record_kind AS kind FROM audit_records
       WHERE tool_name = 'crash-probe'`,
    );
    const byN = new Map<number, { id: string; kind: string }[]>();
    for (const row of rows) byN.set(row.n, [...(byN.get(row.n) ?? []), row]);
    for (const i of answered) {
      const records = byN.get(i) ?? [];
      expect(records, `evaluation ${i}`).toHaveLength(1);
      const auditId = audited.get(i);
      if (auditId !== undefined) expect(records[0]).toMatchObject({ id: auditId, kind: 'tool_call' });
      else expect(['tool_call', 'evaluation_expired']).toContain(records[0]?.kind);
    }
    // Every record belongs to one evaluation: none twice.
    expect([...byN.values()].every((records) => records.length === 1)).toBe(true);

    // The pot after the crash: every answered audit's charge and ledger row survived; a charge committed
    // by an audit whose answer was lost has its record too; no hold outlives the TTL.
    const ledger = await client.query<{ audit_record_id: string }>(
      `SELECT audit_record_id FROM budget_events WHERE budget_name = 'pot'`,
    );
    const recordIds = new Set(rows.map((row) => row.id));
    const charged = new Set(ledger.rows.map((row) => row.audit_record_id));
    expect([...charged].every((id) => recordIds.has(id))).toBe(true);
    expect(audited.size).toBeGreaterThan(10);
    for (const auditId of audited.values()) expect(charged.has(auditId), `charge of ${auditId}`).toBe(true);
    // A hold placed by a reservation whose pending row the crash never wrote has no evaluation to
    // expire it: it stops counting at its TTL (and its row is retired when the pot is next touched).
    const pot = await client.query(
      `SELECT b.charged::text, b.charge_count::int, b.held::text, b.hold_count::int,
         (SELECT count(*)::int FROM limit_charge_entries c WHERE c.bucket_id = b.bucket_id) AS charge_rows,
         (SELECT count(*)::int FROM limit_holds h WHERE h.bucket_id = b.bucket_id) AS hold_rows,
         (SELECT coalesce(sum(h.amount), 0)::text FROM limit_holds h WHERE h.bucket_id = b.bucket_id) AS hold_sum,
         (SELECT s.held::text FROM helios_limit_states(ARRAY[b.bucket_id],
            (extract(epoch FROM clock_timestamp()) * 1000)::bigint) s) AS live_held,
         (SELECT count(*)::int FROM budget_events e WHERE e.budget_name = 'pot') AS ledger_rows
       FROM limit_buckets b WHERE b.family = 'budget'`,
    );
    expect(pot.rows).toHaveLength(1);
    const [state] = pot.rows as [Record<string, unknown>];
    expect(state['live_held']).toBe('0');
    expect(state['held']).toBe(state['hold_sum']);
    expect(state['hold_count']).toBe(state['hold_rows']);
    expect(state['charge_count']).toBe(state['charge_rows']);
    expect(state['ledger_rows']).toBe(state['charge_rows']);
    expect(state['charged']).toBe(String(Number(state['charge_rows']) * 1_000_000));
    expect(Number(state['charge_rows'])).toBeGreaterThanOrEqual(audited.size);
  });
});
