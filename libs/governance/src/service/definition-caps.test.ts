/**
 * Issue 15, item 5: 300 requests with distinct tool names and 900 KB descriptions took the process from
 * 120 to 447 MB, never released (the drift guard kept every definition). Now what it keeps is capped
 * per definition and per origin, and a call whose definition would go past a cap fails closed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_GOVERNANCE_LIMITS } from '../config/governance-limits.js';
import { harness } from '../testing/service-harness.js';

const DRIFT = "version: '1'\npolicies: { on_tool_drift: log }\n";

/** A definition `{"name":"<name>","description":"<x…>"}` of exactly `bytes` serialized bytes. */
function toolOfBytes(name: string, bytes: number) {
  const overhead = JSON.stringify({ name, description: '' }).length;
  return { name, description: 'x'.repeat(bytes - overhead) };
}

describe('the drift guard keeps a bounded copy of each definition', () => {
  it('the attack: 300 distinct tools with 900 KB descriptions are all refused, none kept', async () => {
    const h = await harness(DRIFT);
    const huge = 'd'.repeat(900 * 1024);
    for (let i = 0; i < 300; i += 1) {
      expect(await h.service.evaluate({ tool: { name: `tool_${i}`, description: huge } })).toMatchObject({
        type: 'Error',
        body: { error: 'tool_definition_too_large' },
      });
    }
    // None was baselined: the same names still fit, with definitions of a sane size.
    expect((await h.service.evaluate({ tool: { name: 'tool_0', description: 'reads' } })).type).toBe(
      'Decided',
    );
    expect(DEFAULT_GOVERNANCE_LIMITS.maxToolDefinitionBytes).toBe(64 * 1024);
  });

  it('one definition: at the cap it is kept, one byte over it is 413', async () => {
    const h = await harness(DRIFT, { limits: { maxToolDefinitionBytes: 200 } });
    expect((await h.service.evaluate({ tool: toolOfBytes('a', 200) })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: toolOfBytes('b', 201) })).toMatchObject({
      type: 'Error',
      body: { error: 'tool_definition_too_large' },
    });
    // A known tool whose definition grows past the cap is refused too, and keeps its old definition.
    expect(await h.service.evaluate({ tool: toolOfBytes('a', 201) })).toMatchObject({
      type: 'Error',
      body: { error: 'tool_definition_too_large' },
    });
    expect(await h.service.evaluate({ tool: toolOfBytes('a', 150) })).toMatchObject({
      type: 'Decided',
      body: { tool_drift: { changes: [{ aspect: 'description' }] } },
    });
  });

  it('per origin: definitions up to the total are kept, past it the call is 400 tool_baseline_limit', async () => {
    const h = await harness(DRIFT, {
      limits: { maxToolDefinitionBytes: 100, maxToolDefinitionBytesPerOrigin: 300 },
    });
    for (const name of ['a', 'b', 'c'])
      expect((await h.service.evaluate({ tool: toolOfBytes(name, 100) })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: toolOfBytes('d', 40) })).toMatchObject({
      type: 'Error',
      body: { error: 'tool_baseline_limit' },
    });
    // Another origin has its own total.
    expect((await h.service.evaluate({ origin: 'other', tool: toolOfBytes('d', 40) })).type).toBe('Decided');
    // A changed definition adds its current copy beside the baseline: the origin is full.
    expect(await h.service.evaluate({ tool: toolOfBytes('a', 99) })).toMatchObject({
      type: 'Error',
      body: { error: 'tool_baseline_limit' },
    });
  });

  it('a changed definition replaces the current copy instead of piling up', async () => {
    const h = await harness(DRIFT, {
      limits: { maxToolDefinitionBytes: 100, maxToolDefinitionBytesPerOrigin: 250 },
    });
    expect((await h.service.evaluate({ tool: toolOfBytes('a', 100) })).type).toBe('Decided');
    // Baseline 100 + current 100 = 200 of 250, again and again: each change replaces the last one.
    for (let i = 0; i < 20; i += 1) {
      const same = toolOfBytes('a', 100);
      const changed = { ...same, description: `v${i}`.padEnd(same.description.length, 'y') };
      expect((await h.service.evaluate({ tool: changed })).type).toBe('Decided');
    }
    expect((await h.service.evaluate({ tool: toolOfBytes('b', 50) })).type).toBe('Decided');
    expect(await h.service.evaluate({ tool: toolOfBytes('c', 30) })).toMatchObject({
      type: 'Error',
      body: { error: 'tool_baseline_limit' },
    });
  });

  it('a definition sent again unchanged is not measured again', async () => {
    const h = await harness(DRIFT, {
      limits: { maxToolDefinitionBytes: 100, maxToolDefinitionBytesPerOrigin: 100 },
    });
    const tool = toolOfBytes('a', 100);
    for (let i = 0; i < 5; i += 1) expect((await h.service.evaluate({ tool })).type).toBe('Decided');
  });
});
