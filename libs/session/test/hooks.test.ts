import { Message, toolCall, ToolResult } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { describe, expect, it } from 'vitest';
import { HONOURED } from '../src/hooks/hook-runner.js';
import {
  AgentSession,
  type Hook,
  HookOutcome,
  type HookOutcomeKind,
  type QueryEvent,
  type SessionOptions,
} from '../src/index.js';
import { add, addTool, customTool, drain, readBinding, recordingLogger, types } from './helpers.js';

async function run(model: ScriptedModel, hooks: Hook[], options: Partial<SessionOptions> = {}) {
  const logger = recordingLogger();
  const session = await AgentSession.open({
    model,
    logger,
    tools: [readBinding(addTool)],
    hooks,
    ...options,
  });
  const stream = session.events();
  const result = await session.send('hello');
  await session.close();
  return { result, events: await drain(stream), session, logger };
}

function fired(events: readonly QueryEvent[]): unknown[] {
  return events
    .filter((e) => e.type === 'HookFired')
    .map((e) => e.type === 'HookFired' && [e.hookName, e.phase, e.outcomeKind]);
}

const ALL: Record<HookOutcomeKind, HookOutcome> = {
  Continue: HookOutcome.cont(),
  Block: HookOutcome.block('r'),
  Inject: HookOutcome.inject('injected'),
  Stop: HookOutcome.stop('stopped'),
  MutateArgs: HookOutcome.mutateArgs({ a: 5, b: 5 }),
  MutateHistory: HookOutcome.mutateHistory([Message.user('rewritten')]),
  MutateText: HookOutcome.mutateText('new text'),
  MutateResult: HookOutcome.mutateResult('new result'),
};

describe('hooks', () => {
  it('runs in ascending priority, first non-Continue wins, throwing and undefined count as Continue', async () => {
    const calls: string[] = [];
    const hooks: Hook[] = [
      { type: 'PreModelTurn', name: 'late', priority: 200, handle: () => void calls.push('late') },
      {
        type: 'PreModelTurn',
        name: 'winner',
        priority: 20,
        handle: () => (calls.push('winner'), HookOutcome.stop('halt')),
      },
      {
        type: 'PreModelTurn',
        name: 'thrower',
        priority: 10,
        handle: () => {
          calls.push('thrower');
          throw new Error('hook bug');
        },
      },
      { type: 'PreModelTurn', priority: 10, handle: () => (calls.push('anonymous'), undefined) },
    ];
    const { result, events, logger } = await run(new ScriptedModel(), hooks);
    expect(calls).toEqual(['thrower', 'anonymous', 'winner']);
    expect(result).toMatchObject({ type: 'Success', result: 'halt' });
    expect(fired(events)).toEqual([['winner', 'PreModelTurnHook', 'Stop']]);
    expect(logger.lines.some((l) => l.message.includes('hook thrower (PreModelTurnHook) threw'))).toBe(true);
  });

  it('an outcome a phase does not honour still ends the chain (HookFired), and acts as Continue', async () => {
    for (const [phase, honoured] of Object.entries(HONOURED)) {
      for (const [kind, outcome] of Object.entries(ALL)) {
        if (kind === 'Continue' || honoured.has(kind as HookOutcomeKind)) continue;
        const later: string[] = [];
        const hooks = [
          { type: phase, name: 'odd', priority: 1, handle: () => outcome },
          { type: phase, name: 'later', priority: 2, handle: () => void later.push(phase) },
        ] as unknown as Hook[];
        const model = new ScriptedModel().thenToolCalls([add()]).thenText('done');
        // A compactor that always shrinks, so PreCompact and PostCompact hooks are asked too.
        const { result, events, logger } = await run(model, hooks, {
          limits: { maxContextTokens: 10 },
          contextCompactor: { compact: (history) => Promise.resolve({ history: history.slice(-1) }) },
        });
        const label = `${phase} ${kind}`;
        expect(result, label).toMatchObject({ type: 'Success', result: 'done' });
        expect(later, label).toEqual([]);
        const firings = fired(events);
        expect(firings.length, label).toBeGreaterThan(0);
        expect(new Set(firings.map((f) => JSON.stringify(f))), label).toEqual(
          new Set([JSON.stringify(['odd', `${phase}Hook`, kind])]),
        );
        expect(
          logger.lines.some((l) => l.message.includes(`returned ${kind}`)),
          label,
        ).toBe(true);
      }
    }
  });

  describe('OnUserMessage', () => {
    it('MutateText replaces the text; Block drops it (MessageBlocked); Stop ends Success', async () => {
      const mutate = await run(new ScriptedModel().thenText('ok'), [
        { type: 'OnUserMessage', handle: () => HookOutcome.mutateText('rewritten') },
      ]);
      expect(mutate.session.history[0]).toEqual(Message.user('rewritten'));
      expect(mutate.events.find((e) => e.type === 'UserMessageReceived')).toMatchObject({
        message: { content: 'rewritten' },
      });
      const blocked = await run(new ScriptedModel(), [
        { type: 'OnUserMessage', name: 'guard', handle: () => HookOutcome.block('rude') },
      ]);
      expect(blocked.events.find((e) => e.type === 'MessageBlocked')).toMatchObject({
        hookName: 'guard',
        reason: 'rude',
      });
      const stop = await run(new ScriptedModel(), [
        { type: 'OnUserMessage', handle: () => HookOutcome.stop('bye') },
      ]);
      expect(stop.result).toMatchObject({ type: 'Success', result: 'bye' });
      expect(fired(stop.events)).toEqual([['OnUserMessageHook', 'OnUserMessageHook', 'Stop']]);
    });

    it('a Stop leaves later steering messages for the next run', async () => {
      const model = new ScriptedModel().thenText('first', { chunkDelayMs: 300 }).thenText('second');
      const session = await AgentSession.open({
        model,
        logger: recordingLogger(),
        hooks: [
          {
            type: 'OnUserMessage',
            handle: (m) => (m.content === 'stop' ? HookOutcome.stop('stopped') : undefined),
          },
        ],
      });
      const pending = session.send('a');
      await new Promise((resolve) => setTimeout(resolve, 50));
      void session.send('stop');
      void session.send('c');
      expect(await pending).toMatchObject({ type: 'Success', result: 'stopped' });
      await session.close();
    });
  });

  describe('PreModelTurn', () => {
    it('Inject enqueues and skips the model call; MutateHistory swaps the history', async () => {
      let injected = false;
      const inject = await run(new ScriptedModel().thenText('answer'), [
        {
          type: 'PreModelTurn',
          handle: () => (injected ? undefined : ((injected = true), HookOutcome.inject('more context'))),
        },
      ]);
      expect(inject.result).toMatchObject({ type: 'Success', result: 'answer' });
      expect(inject.session.history.map((m) => m.content)).toEqual(['hello', 'more context', 'answer']);
      const swap = await run(new ScriptedModel().thenText('answer'), [
        { type: 'PreModelTurn', handle: () => HookOutcome.mutateHistory([Message.user('rewritten')]) },
      ]);
      expect(swap.session.history.map((m) => m.content)).toEqual(['rewritten', 'answer']);
    });
  });

  describe('PostModelTurn', () => {
    it('Stop ends the run; Inject enqueues', async () => {
      const stop = await run(new ScriptedModel().thenToolCalls([add()]), [
        {
          type: 'PostModelTurn',
          handle: (r) => (r.finishReason === 'TOOL_CALLS' ? HookOutcome.stop('enough') : undefined),
        },
      ]);
      expect(stop.result).toMatchObject({ type: 'Success', result: 'enough' });
      let once = false;
      const inject = await run(new ScriptedModel().thenText('a').thenText('b'), [
        {
          type: 'PostModelTurn',
          handle: () => (once ? undefined : ((once = true), HookOutcome.inject('follow up'))),
        },
      ]);
      expect(inject.result).toMatchObject({ type: 'Success', result: 'b' });
    });
  });

  describe('PreToolUse', () => {
    it('MutateArgs runs the tool with new args (ToolMutated, then ToolUse)', async () => {
      const { events, session } = await run(new ScriptedModel().thenToolCalls([add()]).thenText('done'), [
        { type: 'PreToolUse', name: 'doubler', handle: () => HookOutcome.mutateArgs({ a: 10, b: 20 }) },
      ]);
      expect(types(events).filter((t) => t.startsWith('Tool'))).toEqual([
        'ToolMutated',
        'ToolUse',
        'ToolResult',
      ]);
      expect(events.find((e) => e.type === 'ToolMutated')).toMatchObject({
        hookName: 'doubler',
        inputBefore: { a: 1, b: 2 },
        inputAfter: { a: 10, b: 20 },
      });
      expect(session.history.find((m) => m.role === 'tool')?.content).toBe('30');
    });

    it('Block answers "blocked by hook"; Inject answers "tool skipped"; Stop ends with later calls not run', async () => {
      const block = await run(new ScriptedModel().thenToolCalls([add()]).thenText('done'), [
        { type: 'PreToolUse', name: 'no', handle: () => HookOutcome.block('not today') },
      ]);
      expect(block.events.find((e) => e.type === 'ToolBlocked')).toMatchObject({
        hookName: 'no',
        reason: 'not today',
      });
      expect(block.session.history.find((m) => m.role === 'tool')?.content).toBe(
        'blocked by hook: not today',
      );
      const inject = await run(new ScriptedModel().thenToolCalls([add()]).thenText('done'), [
        { type: 'PreToolUse', handle: () => HookOutcome.inject('use another way') },
      ]);
      expect(inject.session.history.map((m) => m.content)).toContain(
        'tool skipped: hook injected user message',
      );
      expect(inject.session.history.map((m) => m.content)).toContain('use another way');
      const stop = await run(new ScriptedModel().thenToolCalls([add('1'), add('2')]), [
        { type: 'PreToolUse', handle: () => HookOutcome.stop('halted') },
      ]);
      expect(stop.result).toMatchObject({ type: 'Success', result: 'halted' });
      expect(stop.session.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        'tool call not run: the run ended (Success)',
        'tool call not run: the run ended (Success)',
      ]);
    });
  });

  describe('PostToolUse', () => {
    it('MutateResult replaces the result (second ToolResult); Inject enqueues; Stop appends then ends', async () => {
      const mutate = await run(new ScriptedModel().thenToolCalls([add()]).thenText('done'), [
        {
          type: 'PostToolUse',
          handle: (_c, r) => (r.output === '3' ? HookOutcome.mutateResult('three') : undefined),
        },
      ]);
      expect(
        mutate.events
          .filter((e) => e.type === 'ToolResult')
          .map((e) => e.type === 'ToolResult' && e.result.output),
      ).toEqual(['3', 'three']);
      expect(mutate.session.history.find((m) => m.role === 'tool')?.content).toBe('three');
      const inject = await run(new ScriptedModel().thenToolCalls([add()]).thenText('done'), [
        { type: 'PostToolUse', handle: () => HookOutcome.inject('note this') },
      ]);
      expect(inject.session.history.map((m) => m.content)).toContain('note this');
      const stop = await run(new ScriptedModel().thenToolCalls([add('1'), add('2')]), [
        { type: 'PostToolUse', handle: () => HookOutcome.stop('got it') },
      ]);
      expect(stop.result).toMatchObject({ type: 'Success', result: 'got it' });
      expect(stop.session.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        '3',
        'tool call not run: the run ended (Success)',
      ]);
    });
  });

  describe('PreStop', () => {
    it('Stop replaces the final text; Inject continues the run', async () => {
      const stop = await run(new ScriptedModel().thenText('draft'), [
        { type: 'PreStop', handle: () => HookOutcome.stop('final') },
      ]);
      expect(stop.result).toMatchObject({ type: 'Success', result: 'final' });
      let once = false;
      const inject = await run(new ScriptedModel().thenText('draft').thenText('better'), [
        {
          type: 'PreStop',
          handle: () => (once ? undefined : ((once = true), HookOutcome.inject('check again'))),
        },
      ]);
      expect(inject.result).toMatchObject({ type: 'Success', result: 'better' });
    });
  });

  describe('compaction hooks', () => {
    const compactor = { compact: async (history: readonly Message[]) => ({ history: history.slice(-1) }) };

    it('PreCompact MutateHistory becomes the compactor input; PostCompact Stop ends the run', async () => {
      let input: readonly Message[] = [];
      const { result, events } = await run(
        new ScriptedModel().thenText('x'.repeat(200)),
        [
          {
            type: 'PreCompact',
            handle: () => HookOutcome.mutateHistory([Message.user('a'), Message.user('b')]),
          },
          { type: 'PostCompact', handle: (payload) => HookOutcome.stop(`removed ${payload.removedBlocks}`) },
        ],
        {
          limits: { maxContextTokens: 40 },
          contextCompactor: {
            compact: async (history) => {
              input = history;
              return compactor.compact(history);
            },
          },
        },
      );
      expect(input.map((m) => m.content)).toEqual(['a', 'b']);
      expect(result).toMatchObject({ type: 'Success', result: 'removed 1' });
      expect(fired(events).map((f) => (f as string[])[1])).toEqual(['PreCompactHook', 'PostCompactHook']);
    });
  });

  describe('OnStreamEvent', () => {
    it('observes every event; a throwing observer is logged and ignored', async () => {
      const seen: string[] = [];
      const { result, logger } = await run(new ScriptedModel().thenText('ok'), [
        { type: 'OnStreamEvent', handle: (event) => void seen.push(event.type) },
        {
          type: 'OnStreamEvent',
          name: 'broken',
          handle: () => {
            throw new Error('observer bug');
          },
        },
      ]);
      expect(result.type).toBe('Success');
      expect(seen).toEqual(['RunStarted', 'UserMessageReceived', 'AssistantText', 'TurnEnded', 'RunEnded']);
      expect(logger.lines.filter((l) => l.message.includes('broken'))).toHaveLength(5);
    });
  });

  it('validates outcomes', () => {
    expect(() => HookOutcome.block(' ')).toThrow(/reason/);
    expect(() => HookOutcome.inject('')).toThrow(/message/);
    expect(() => HookOutcome.stop('')).toThrow(/result/);
    expect(() => HookOutcome.mutateText('')).toThrow(/text/);
    expect(HookOutcome.mutateResult('').type).toBe('MutateResult');
    expect(customTool('x', () => ToolResult.success('')).name).toBe('x');
    expect(toolCall('a', 'b').name).toBe('b');
  });
});
