import { CostCalculator, type Message, Pricing, toolCall, ToolResult, Usage } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Semaphore, ToolSlots } from '../src/tools/slots.js';
import {
  AgentSession,
  bindTool,
  ContextCompactor,
  DEFAULT_CONCURRENCY,
  DEFAULT_LIMITS,
  effectiveContextTokens,
  HookOutcome,
  Permission,
  StreamRetryPolicy,
  ToolCategory,
} from '../src/index.js';
import { resolveConcurrency, resolveLimits } from '../src/limits.js';
import { add, addTool, customTool, drain, readBinding, recordingLogger } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

function toolLoop(turns: number, usage?: Usage): ScriptedModel {
  const model = new ScriptedModel();
  for (let i = 0; i < turns; i += 1) model.thenToolCalls([add(`c${i}`)], usage ? { usage } : {});
  return model;
}

describe('limits', () => {
  it('has the reference defaults and validates them', () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      maxTurns: 100,
      maxBudgetMicroUsd: undefined,
      maxWallClockMs: 3_600_000,
      toolTimeoutDefaultMs: 120_000,
      maxContextTokens: 0,
      streamIdleTimeoutMs: 60_000,
      stopGraceMs: 5_000,
    });
    expect(DEFAULT_CONCURRENCY).toEqual({
      maxConcurrentToolCalls: 32,
      maxConcurrentFileWrites: 4,
      maxConcurrentExecutions: 2,
      maxQueuedUserMessages: 256,
    });
    expect(StreamRetryPolicy.disabled().maxAttempts).toBe(1);
    expect(() => resolveLimits({ maxTurns: 0 })).toThrow(/maxTurns/);
    expect(() => resolveLimits({ maxBudgetMicroUsd: 0n })).toThrow(/maxBudget/);
    expect(() => resolveLimits({ maxWallClockMs: -1 })).toThrow(/maxWallClock/);
    expect(() => resolveLimits({ maxContextTokens: -1 })).toThrow(/maxContextTokens/);
    expect(() => resolveLimits({ streamRetry: { ...StreamRetryPolicy.DEFAULT, maxAttempts: 0 } })).toThrow();
    expect(() => resolveConcurrency({ maxConcurrentExecutions: 0 })).toThrow(/maxConcurrentExecutions/);
  });

  it('computes the effective context budget', () => {
    expect(effectiveContextTokens(0, 0)).toBe(180_000);
    expect(effectiveContextTokens(50_000, 0)).toBe(50_000);
    expect(effectiveContextTokens(0, 200_000)).toBe(180_000);
    expect(effectiveContextTokens(100_000, 120_000)).toBe(100_000);
    expect(effectiveContextTokens(0, 10_000)).toBe(180_000);
  });

  it('maxTurns: N tool turns end ErrorMaxTurns(N); N−1 tool turns then an answer succeed', async () => {
    const model = toolLoop(3);
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxTurns: 3 },
    });
    expect(await session.send('go')).toMatchObject({ type: 'ErrorMaxTurns', turnsUsed: 3 });
    await session.close();
    const under = toolLoop(2).thenText('done');
    const second = await AgentSession.open({
      model: under,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxTurns: 4 },
    });
    expect(await second.send('go')).toMatchObject({ type: 'Success', result: 'done' });
    await second.close();
  });

  it('maxTurns edge: an answer on turn N of maxTurns N ends ErrorMaxTurns (the limit is checked before the answer)', async () => {
    // The reference's classifier checks turnIndex >= maxTurns before the finish reason, so the last
    // allowed turn's answer is not a Success; one turn of headroom more and it is.
    const atLimit = await AgentSession.open({
      model: toolLoop(2).thenText('done'),
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxTurns: 3 },
    });
    expect(await atLimit.send('go')).toMatchObject({ type: 'ErrorMaxTurns', turnsUsed: 3 });
    await atLimit.close();
    const single = await AgentSession.open({
      model: new ScriptedModel().thenText('done'),
      logger: recordingLogger(),
      limits: { maxTurns: 1 },
    });
    expect(await single.send('go')).toMatchObject({ type: 'ErrorMaxTurns', turnsUsed: 1 });
    await single.close();
  });

  it('maxTurns counts per run', async () => {
    const model = toolLoop(1).thenText('a').thenText('b');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxTurns: 3 },
    });
    expect((await session.send('x')).type).toBe('Success');
    expect((await session.send('y')).type).toBe('Success');
    await session.close();
  });

  it('budget: spending exactly the budget continues, one micro-USD more ends ErrorMaxBudgetUsd', async () => {
    const costCalculator = CostCalculator.staticTable({ scripted: Pricing.ofUsdPerMillion(1, 0) });
    const usage = Usage.of(100, 0); // 100 µ$ per turn
    const exact = toolLoop(2, usage).thenText('done', { usage });
    const ok = await AgentSession.open({
      model: exact,
      costCalculator,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxBudgetMicroUsd: 300n },
    });
    const result = await ok.send('go');
    expect(result).toMatchObject({ type: 'Success' });
    expect(result.cost.microUsd).toBe(300n);
    await ok.close();
    const over = toolLoop(3, usage);
    const session = await AgentSession.open({
      model: over,
      costCalculator,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxBudgetMicroUsd: 299n },
    });
    expect(await session.send('go')).toMatchObject({ type: 'ErrorMaxBudgetUsd', microUsdSpent: 300n });
    await session.close();
  });

  it('wall clock: a run past maxWallClock ends ErrorMaxWallClock through the hard timer', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenText(['a', 'b'], { chunkDelayMs: 10_000 });
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { maxWallClockMs: 5_000 },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(4_999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ type: 'ErrorMaxWallClock' });
    await session.close();
  });

  it('wall clock: a run that ends at maxWallClock − 1 ms succeeds', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenText('a', { chunkDelayMs: 2_499 }); // text, then MessageStop
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { maxWallClockMs: 5_000 },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(4_998);
    expect(await pending).toMatchObject({ type: 'Success' });
    await session.close();
  });

  it('wall clock: elapsed past the limit at classification also ends ErrorMaxWallClock', async () => {
    vi.useFakeTimers();
    const late = customTool('late', () => {
      vi.setSystemTime(Date.now() + 10_000);
      return ToolResult.success('x');
    });
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'late')]);
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(late)],
      limits: { maxWallClockMs: 5_000 },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(0);
    expect(await pending).toMatchObject({ type: 'ErrorMaxWallClock' });
    await session.close();
  });

  it('caps concurrent tools per category', async () => {
    const slots = new ToolSlots({ ...DEFAULT_CONCURRENCY, maxConcurrentExecutions: 1 });
    const exec = slots.for(ToolCategory.EXECUTION);
    expect(slots.for(ToolCategory.READ)).toBe(slots.for(ToolCategory.NETWORK));
    expect(slots.for(ToolCategory.WRITE)).not.toBe(exec);
    const release = await exec.acquire(new AbortController().signal);
    expect(exec.available).toBe(0);
    let second = false;
    const waiting = exec.acquire(new AbortController().signal).then((r) => {
      second = true;
      return r;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    release();
    release();
    (await waiting)();
    expect(exec.available).toBe(1);
    const controller = new AbortController();
    const held = await exec.acquire(controller.signal);
    const aborted = exec.acquire(controller.signal);
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    await expect(new Semaphore(1).acquire(AbortSignal.abort(new Error('pre')))).rejects.toThrow('pre');
    held();
  });

  it('a tool still holding its slot after a timeout makes the next call wait, bounded by its timeout', async () => {
    vi.useFakeTimers();
    const stuck = customTool('stuck', () => new Promise<ToolResult>(() => undefined));
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('1', 'stuck'), toolCall('2', 'stuck')])
      .thenText('x');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [bindTool(stuck, ToolCategory.EXECUTION, { timeoutMs: 100 })],
      concurrency: { maxConcurrentExecutions: 1 },
      permission: Permission.empty('BYPASS_PERMISSIONS'),
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(200);
    expect((await pending).type).toBe('Success');
    expect(session.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      "tool 'stuck' timed out after 100 ms",
      "tool 'stuck' timed out after 100 ms",
    ]);
    await session.close();
  });

  it('gives the slot back when the run is interrupted before its tool starts', async () => {
    let hookEntered!: () => void;
    const entered = new Promise<void>((resolve) => (hookEntered = resolve));
    let releaseHook!: () => void;
    const hookGate = new Promise<void>((resolve) => (releaseHook = resolve));
    let firstCall = true;
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('1', 'add', { a: 1, b: 2 })])
      .thenToolCalls([toolCall('2', 'add', { a: 3, b: 4 })])
      .thenText('done');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [bindTool(addTool, ToolCategory.EXECUTION, { timeoutMs: 200 })],
      concurrency: { maxConcurrentExecutions: 1 },
      permission: Permission.empty('BYPASS_PERMISSIONS'),
      hooks: [
        {
          type: 'PreToolUse',
          handle: async () => {
            if (!firstCall) return HookOutcome.cont();
            firstCall = false;
            hookEntered();
            await hookGate;
            return HookOutcome.cont();
          },
        },
      ],
    });
    const first = session.send('one');
    await entered;
    expect(session.interrupt()).toBe(true);
    releaseHook();
    expect(await first).toMatchObject({ type: 'Cancelled' });
    expect((await session.send('two')).type).toBe('Success');
    expect(session.history.filter((m) => m.role === 'tool').map((m) => m.content)).toContain('7');
    await session.close();
  });

  it('warns once at 85 % context fill and compacts at 95 %', async () => {
    const compactor = {
      compact: vi.fn(async (history: readonly Message[]) => ({
        history: [history.at(-1) as Message],
        usage: Usage.of(10, 10),
        modelId: 'scripted',
      })),
    };
    const model = new ScriptedModel().thenText('x'.repeat(40)).thenText('y');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { maxContextTokens: 40 },
      contextCompactor: compactor,
      costCalculator: CostCalculator.staticTable({ scripted: Pricing.ofUsdPerMillion(1_000_000, 0) }),
    });
    const stream = session.events();
    const first = await session.send('a'.repeat(100));
    expect(first.type).toBe('Success');
    expect(compactor.compact).toHaveBeenCalled();
    expect(first.usage.totalTokens).toBe(20);
    expect(first.cost.microUsd).toBe(10_000_000n);
    expect((await session.send('b')).type).toBe('Success');
    await session.close();
    const events = await drain(stream);
    // Once before the compaction of the first run; the compaction re-arms it, and the history it left
    // never reaches 85 % again.
    expect(events.filter((e) => e.type === 'ContextWarning')).toHaveLength(1);
    expect(events.find((e) => e.type === 'ContextEdited')).toMatchObject({ removedBlocks: 1 });
  });

  it('warns exactly once while the fill stays above 85 % over many turns and runs', async () => {
    const model = toolLoop(3).thenText('done').thenText('again');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      limits: { maxContextTokens: 40 },
      contextCompactor: ContextCompactor.disabled(),
    });
    const stream = session.events();
    expect((await session.send('a'.repeat(140))).type).toBe('Success');
    expect((await session.send('b')).type).toBe('Success');
    await session.close();
    const warnings = (await drain(stream)).filter((e) => e.type === 'ContextWarning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ turnIndex: 1 });
  });

  it('a disabled compactor leaves the history; a failing one is logged', async () => {
    const model = new ScriptedModel().thenText('x');
    const logger = recordingLogger();
    const failing = await AgentSession.open({
      model,
      logger,
      limits: { maxContextTokens: 10 },
      contextCompactor: { compact: () => Promise.reject(new Error('summary failed')) },
    });
    expect((await failing.send('a'.repeat(100))).type).toBe('Success');
    expect(logger.lines.some((l) => l.message.includes('compaction failed'))).toBe(true);
    await failing.close();
    expect(ContextCompactor.isDisabled(ContextCompactor.disabled())).toBe(true);
    expect((await ContextCompactor.disabled().compact([], {} as never)).history).toEqual([]);
  });
});
