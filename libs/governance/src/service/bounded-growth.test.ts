/** Every cap on caller-controlled growth at n and n + 1, and counters under concurrent calls. */
import { describe, expect, it } from 'vitest';
import { decidedBody as body, harness } from '../testing/service-harness.js';

const OPEN = "version: '1'\nsdk: { enabled: true }\n";

describe('bounded growth: every cap at n and n+1', () => {
  it('tool_input and metadata sizes, and the reserved agent_id key', async () => {
    const h = await harness(OPEN, { limits: { maxToolInputBytes: 20, maxMetadataBytes: 20 } });
    const fits = { a: 'x'.repeat(12) }; // {"a":"xxxxxxxxxxxx"} = 20 bytes
    expect((await h.service.evaluate({ tool: { name: 't' }, arguments: fits })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(13) } })).toMatchObject(
      {
        type: 'Error',
        body: { error: 'tool_input_too_large' },
      },
    );
    expect((await h.service.evaluate({ tool: { name: 't' }, metadata: fits })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: { name: 't' }, metadata: { a: 'x'.repeat(13) } })).toMatchObject({
      type: 'Error',
      body: { error: 'metadata_too_large' },
    });
    expect(await h.service.evaluate({ tool: { name: 't' }, metadata: { agent_id: 'x' } })).toMatchObject({
      type: 'Error',
      body: { error: 'reserved_metadata_key', key: 'agent_id' },
    });
  });

  it('distinct origins', async () => {
    const h = await harness(OPEN, { limits: { maxOrigins: 2 } });
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'a' })).type).toBe('Decided');
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'b' })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: { name: 't' }, origin: 'c' })).toMatchObject({
      type: 'Error',
      body: { error: 'origin_limit_exceeded' },
    });
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'a' })).type).toBe('Decided');
  });

  it('baselined tools per origin (first-seen only; known tools keep updating)', async () => {
    const h = await harness("version: '1'\npolicies: { on_tool_drift: log }\n", {
      limits: { maxToolsPerOrigin: 2 },
    });
    const def = (name: string, description: string) => ({ tool: { name, description } });
    expect((await h.service.evaluate(def('a', '1'))).type).toBe('Decided');
    expect((await h.service.evaluate(def('b', '1'))).type).toBe('Decided');
    expect(await h.service.evaluate(def('c', '1'))).toMatchObject({
      type: 'Error',
      body: { error: 'tool_baseline_limit' },
    });
    expect((await h.service.evaluate(def('a', '2'))).type).toBe('Decided');
    expect((await h.service.evaluate({ tool: { name: 'c' } })).type).toBe('Decided');
  });

  it('pending evaluations by count and by bytes', async () => {
    const h = await harness(OPEN, { limits: { maxPendingEvaluations: 2 } });
    expect((await h.service.evaluate({ tool: { name: 't' } })).type).toBe('Decided');
    expect((await h.service.evaluate({ tool: { name: 't' } })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: { name: 't' } })).toMatchObject({
      type: 'Error',
      body: { error: 'evaluation_backlog_full' },
    });
    expect(h.pending.backlog().count).toBe(2);
    const bytes = await harness(OPEN, { limits: { maxPendingBytes: 200 } });
    expect(
      (await bytes.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(100) } })).type,
    ).toBe('Decided');
    expect(
      await bytes.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(100) } }),
    ).toMatchObject({ type: 'Error', body: { error: 'evaluation_backlog_full' } });
  });

  it('a backlog that fills between the pre-check and admission releases the holds it placed', async () => {
    const h = await harness(
      "version: '1'\nbudgets: [ { name: p, limit: 1, currency: USD, window: 1h, contributors: [ { match: { tool: t }, field: a } ] } ]\n",
      { limits: { maxPendingBytes: 220 } },
    );
    const result = await h.service.evaluate({
      tool: { name: 't' },
      arguments: { a: 1, pad: 'x'.repeat(90) },
    });
    expect(result).toMatchObject({ type: 'Error', body: { error: 'evaluation_backlog_full' } });
    expect(h.limits.usage({ family: 'budget', key: 'budget:p:global', epoch: 1 }, h.clock.now())).toBe(0n);
  });

  it('distinct sender keys, released when their bucket empties', async () => {
    const h = await harness(
      `${OPEN}policies: { rules: [ { match: {}, action: rate_limit, limits: { max_calls: 5, window: 1m, key: sender_id } } ] }\n`,
      { limits: { maxSenderKeys: 2 } },
    );
    const call = (sender: string) =>
      h.service.evaluate({ tool: { name: 't' }, metadata: { sender_id: sender } });
    const first = body(await call('U1'));
    expect((await call('U2')).type).toBe('Decided');
    expect(await call('U3')).toMatchObject({ type: 'Error', body: { error: 'limit_capacity_exhausted' } });
    expect((await call('U1')).type).toBe('Decided');
    await h.service.audit({ evaluation_id: first.evaluation_id, status: 'not_executed' });
    expect(await call('U3')).toMatchObject({ type: 'Error', body: { error: 'limit_capacity_exhausted' } });
    h.clock.advance(600_000);
    await h.service.sweep();
    expect((await call('U3')).type).toBe('Decided');
  });
});

describe('concurrency', () => {
  it('50 parallel evaluate/audit pairs against one rate bucket never over-admit', async () => {
    const h = await harness(
      "version: '1'\npolicies: { rules: [ { match: {}, action: rate_limit, limits: { max_calls: 10, window: 1h } } ] }\n",
    );
    const results = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const decided = body(await h.service.evaluate({ tool: { name: 't' } }));
        if (decided.decision === 'allow')
          await h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
        return decided.decision;
      }),
    );
    expect(results.filter((d) => d === 'allow')).toHaveLength(10);
    expect(h.limits.usage({ family: 'rate', key: 'tool:t:rule:0', epoch: 0 }, h.clock.now())).toBe(10n);
  });

  it('200 concurrent evaluate+audit pairs against a budget that admits 50 charge exactly 50', async () => {
    const h = await harness(
      "version: '1'\nbudgets: [ { name: p, limit: 50, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: a } ] } ]\n",
    );
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        const decided = body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { a: 1 } }));
        if (decided.decision === 'allow') {
          await Promise.all([
            h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
            h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
          ]);
        }
      }),
    );
    expect(h.limits.ledger()).toHaveLength(50);
  });
});
