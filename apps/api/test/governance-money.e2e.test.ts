/**
 * Money of any size over HTTP against the real listener and PostgreSQL: a spend rule and a budget
 * counting amounts of 1e20 (10^26 micro-units, far past a bigint), the exact amounts in the database
 * (numeric columns, the audit record's evidence chain), the window's spend seen by the next /evaluate,
 * and the one text every refused amount carries.
 */
import { INVALID_AMOUNT_TEXT } from '@helios/governance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGovernanceApp, type GovernanceApp, type Reply } from './support/governance-app.js';

const HOUR = 3_600_000;
/** Allow records are buffered (flushed every ~100 ms); leave room for a loaded machine. */
const POLL = { timeout: 5_000, interval: 50 };
/** 1e20 of the currency in micro-units, as PostgreSQL spells the numeric. */
const E20_MICROS = '100000000000000000000000000';

const policy = (port: number) => `
version: '1'
environment: money
sdk: { enabled: true, port: ${port}, evaluation_ttl: 10m }
policies:
  default: allow
  rules:
    - name: buy-spend
      match: { tool: buy }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 1.5e20, currency: USD, window: 1h } }
budgets:
  - name: vault
    limit: 1e25
    currency: USD
    window: 1h
    contributors: [ { match: { tool: deposit }, field: amount } ]
`;

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

const evaluate = (body: Record<string, unknown>) => app.post('/evaluate', body);
const audit = (body: Record<string, unknown>) => app.post('/audit', body);

/** The audit record's evidence chain as PostgreSQL holds it (jsonb), once the buffered record is written. */
async function storedChain(auditRecordId: string): Promise<{ chain: unknown; text: string }> {
  let rows: { chain: unknown; text: string }[] = [];
  await expect
    .poll(async () => {
      rows = await app.query(
        `SELECT evidence_chain AS chain, evidence_chain::text AS text FROM audit_records WHERE id = $1`,
        [auditRecordId],
      );
      return rows.length;
    }, POLL)
    .toBe(1);
  return rows[0] as { chain: unknown; text: string };
}

async function charged(evaluated: Reply): Promise<string[]> {
  const rows = await app.query<{ amount: string }>(
    `SELECT amount::text AS amount FROM limit_charge_entries WHERE reservation_id = $1`,
    [evaluated.body.evaluation_id],
  );
  return rows.map((row) => row.amount);
}

describe('money of any size', () => {
  it('a spend rule records an actual_amount of 1e20 exactly and counts it against the window', async () => {
    const now = app.clock.now();
    const first = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 1 } });
    expect(first.body).toMatchObject({
      decision: 'allow',
      limits: { spend: { current_spend: 1, limit: 1.5e20, currency: 'USD', window_ms: HOUR } },
    });
    const audited = await audit({
      evaluation_id: first.body.evaluation_id,
      status: 'success',
      actual_amount: 1e20,
    });
    expect(audited).toEqual({ status: 201, body: { ok: true, audit_record_id: expect.any(String) } });

    expect(await charged(first)).toEqual([E20_MICROS]);
    const stored = await storedChain(audited.body.audit_record_id as string);
    expect(stored.chain).toMatchObject({
      spend_limit: { allowed: true, current_spend: 1e20, limit: 1.5e20, reset_at_ms: now + HOUR },
    });
    expect(stored.text).toContain('"current_spend": 100000000000000000000');

    // The window holds 1e20: 5e19 more reaches the limit exactly (allowed), the next double above does not.
    const exact = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 5e19 } });
    expect(exact.body).toMatchObject({
      decision: 'allow',
      limits: { spend: { current_spend: 1.5e20, limit: 1.5e20 } },
    });
    expect((await audit({ evaluation_id: exact.body.evaluation_id, status: 'not_executed' })).status).toBe(
      201,
    );
    const over = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 5e19 + 8192 } });
    expect(over.body).toMatchObject({
      decision: 'spend_limited',
      limits: { spend: { current_spend: 1e20, limit: 1.5e20 } },
    });
    expect(over.body.limits.spend).not.toHaveProperty('reason');
  });

  it('a budget contributor of 1e20 is charged exactly, and the pot refuses what would pass its limit', async () => {
    const deposit = await evaluate({ tool: { name: 'deposit' }, arguments: { amount: 1e20 } });
    expect(deposit.body).toMatchObject({
      decision: 'allow',
      limits: { budgets: [{ name: 'vault', limit: 1e25, spent: 0, attempted_amount: 1e20, allowed: true }] },
    });
    const audited = await audit({ evaluation_id: deposit.body.evaluation_id, status: 'success' });
    expect(audited.status).toBe(201);
    // actual_amount replaces a budget charge too: the pot then holds 2e20 (2 × 10^26 micro-units).
    const second = await evaluate({ tool: { name: 'deposit' }, arguments: { amount: 1 } });
    const replaced = await audit({
      evaluation_id: second.body.evaluation_id,
      status: 'success',
      actual_amount: 1e20,
    });
    expect(replaced.status).toBe(201);
    expect(
      await app.query(
        `SELECT amount::text AS amount FROM budget_events WHERE audit_record_id = ANY($1::text[]) ORDER BY id`,
        [[audited.body.audit_record_id, replaced.body.audit_record_id]],
      ),
    ).toEqual([{ amount: E20_MICROS }, { amount: E20_MICROS }]);

    const full = await evaluate({ tool: { name: 'deposit' }, arguments: { amount: 1e25 } });
    expect(full.body).toMatchObject({
      decision: 'budget_exceeded',
      limits: { budgets: [{ name: 'vault', spent: 2e20, remaining: 1e25 - 2e20, attempted_amount: 1e25 }] },
    });
    expect(full.body.limits.budgets[0]).not.toHaveProperty('reason');
  });

  it('refuses a negative actual_amount with invalid_actual_amount and the one text, recording nothing', async () => {
    const buy = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 1 } });
    expect(buy.body.decision).toBe('allow');
    expect(
      await audit({ evaluation_id: buy.body.evaluation_id, status: 'success', actual_amount: -1 }),
    ).toEqual({
      status: 400,
      body: {
        error: 'invalid_actual_amount',
        details: [{ path: 'actual_amount', message: INVALID_AMOUNT_TEXT }],
      },
    });
    expect(await charged(buy)).toEqual([]);
    // A string is no number: the request schema refuses it before the engine (the reference's 400), at
    // the same path; in-process callers that pass one get invalid_actual_amount (money-of-any-size.test.ts).
    const text = await audit({
      evaluation_id: buy.body.evaluation_id,
      status: 'success',
      actual_amount: '10',
    });
    expect(text).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', details: [{ path: 'actual_amount' }] },
    });
    // The evaluation is still open: a valid audit finalizes it.
    expect(
      (await audit({ evaluation_id: buy.body.evaluation_id, status: 'success', actual_amount: 0 })).status,
    ).toBe(201);
    expect(await charged(buy)).toEqual(['0']);
  });
});
