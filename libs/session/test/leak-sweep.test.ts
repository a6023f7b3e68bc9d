/**
 * The secrets promise, swept: a registered value is planted in every field a model, a tool and a hook
 * can fill, and every channel the session emits is searched for it. The exclusions are the documented
 * ones (user messages, hook Inject text, the model's own text and the calls it wrote, as kept in the
 * history): the planted values below stay out of those, so any hit is a leak.
 */
import {
  Backoff,
  FinishReason,
  inlineFile,
  type ModelChunk,
  SecretRegistry,
  type Trace,
  TraceDetail,
  toolCall,
  ToolResult,
  TransientStreamError,
  Usage,
} from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentSession,
  bindTool,
  HookOutcome,
  type QueryEvent,
  type ResultMessage,
  SessionStartOutcome,
  ToolCategory,
} from '../src/index.js';
import { customTool, recordingLogger } from './helpers.js';

const SECRET = 'sk-live-0123456789abcdef';

afterEach(() => {
  vi.useRealTimers();
});

function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
    if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack, cause: v.cause };
    return v;
  });
}

/** A tool call streamed as the providers do: start, argument fragments cut inside the secret, stop. */
function streamedCall(id: string, name: string, args: Record<string, unknown>): ModelChunk[] {
  const json = JSON.stringify(args);
  const cut = json.indexOf(SECRET) + 5;
  const fragments = cut > 5 ? [json.slice(0, cut), json.slice(cut, cut + 7), json.slice(cut + 7)] : [json];
  return [
    { type: 'ToolUseStart', callId: id, toolName: name },
    ...fragments.map((argumentsDelta): ModelChunk => ({ type: 'ToolUseDelta', callId: id, argumentsDelta })),
    { type: 'ToolUseStop', toolCall: toolCall(id, name, args) },
  ];
}

const stop = (finishReason: FinishReason): ModelChunk => ({
  type: 'MessageStop',
  finishReason,
  usage: Usage.of(10, 5),
  metadata: {},
});

describe('leak sweep', () => {
  it('a secret planted by the model, tools and hooks appears in no event, hook view, span, history entry, result, log or error', async () => {
    vi.useFakeTimers();
    const registry = new SecretRegistry();
    registry.register('API_KEY', SECRET);
    const leaky = bindTool(
      customTool('leaky', (args) => {
        switch (args['mode']) {
          case 'throw':
            throw new Error(`cannot reach ${SECRET}`);
          case 'fail':
            return ToolResult.failure(`refused for ${SECRET}`);
          default:
            return ToolResult.success(`token=${SECRET}`, {
              data: { [SECRET]: [SECRET, { nested: `x${SECRET}x` }], n: 1 },
              attachments: [inlineFile(new Uint8Array([1, 2]), 'image/png', `${SECRET}.png`)],
            });
        }
      }),
      ToolCategory.READ,
    );
    const model = new ScriptedModel()
      .thenChunks([
        ...streamedCall('c1', 'leaky', { mode: 'ok', key: SECRET }),
        ...streamedCall('c2', 'leaky', { mode: 'throw' }),
        ...streamedCall('c3', 'leaky', { mode: 'fail' }),
        ...streamedCall('c4', 'leaky', { mode: 'block', why: SECRET }),
        ...streamedCall('c5', 'leaky', { mode: 'mutate' }),
        ...streamedCall('c6', `missing-${SECRET}`, {}),
        stop(FinishReason.TOOL_CALLS),
      ])
      .thenError(new TransientStreamError(`connection reset sending ${SECRET}`, 'scripted'))
      .thenError(new Error(`provider echoed ${SECRET}`))
      .thenText('second run answer')
      .thenFinish(FinishReason.LENGTH, 'cut short');
    const hookViews: unknown[] = [];
    const traces: Trace[] = [];
    const logger = recordingLogger();
    const session = await AgentSession.open({
      model,
      secrets: registry,
      logger,
      tools: [leaky],
      traceListener: { onTrace: (trace) => void traces.push(trace) },
      traceDetail: TraceDetail.VERBOSE,
      limits: { streamRetry: { maxAttempts: 2, backoff: Backoff.fixed(10), jitter: 0 } },
      hooks: [
        {
          type: 'OnUserMessage',
          handle: (message) =>
            message.content === 'blocked' ? HookOutcome.block(`no ${SECRET}`) : undefined,
        },
        {
          type: 'PreToolUse',
          handle: (call) => {
            if (call.arguments['mode'] === 'block') return HookOutcome.block(`policy ${SECRET}`);
            if (call.arguments['mode'] === 'mutate')
              return HookOutcome.mutateArgs({ mode: 'ok', note: SECRET });
            return undefined;
          },
        },
        {
          type: 'PostToolUse',
          handle: (call, result) => {
            hookViews.push(call.id, result);
            return call.id === 'c5' ? HookOutcome.mutateResult(`rewritten ${SECRET}`) : undefined;
          },
        },
        {
          type: 'PreModelTurn',
          handle: () => {
            throw new Error(`hook broke on ${SECRET}`);
          },
        },
        {
          type: 'PostModelTurn',
          handle: (response) =>
            response.content === 'second run answer' ? HookOutcome.stop(`final ${SECRET}`) : undefined,
        },
        { type: 'OnStreamEvent', handle: (event: QueryEvent) => void hookViews.push(event) },
      ],
    });
    const events: QueryEvent[] = [];
    const reading = (async () => {
      for await (const event of session.events()) events.push(event);
    })();
    const results: ResultMessage[] = [];
    const first = session.send('go');
    await vi.advanceTimersByTimeAsync(100);
    results.push(await first);
    results.push(await session.send('again'));
    const blocked = session.send('blocked');
    results.push(await session.send('third'));
    results.push(await blocked);
    await session.close();
    await reading;

    const refused = await AgentSession.open({
      model: new ScriptedModel(),
      secrets: registry,
      logger,
      executionProvider: {
        name: 'sandbox',
        onSessionStart: () => SessionStartOutcome.refuse(`no sandbox for ${SECRET}`),
        onSessionEnd: () => undefined,
      },
    }).catch((error: unknown) => error);

    expect(results.map((r) => r.type)).toEqual([
      'ErrorDuringExecution',
      'Success',
      'ErrorDuringExecution',
      'ErrorDuringExecution',
    ]);
    // Every planted value reached its channel (so the sweep below searches something).
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      'ToolUseDelta',
      'ToolUse',
      'ToolResult',
      'ToolBlocked',
      'ToolMutated',
      'TurnRetried',
    ]) {
      expect(types, type).toContain(type);
    }
    expect(events.some((e) => e.type === 'MessageBlocked')).toBe(true);
    const toolResults = events.filter((e) => e.type === 'ToolResult');
    expect(toolResults[0]).toMatchObject({
      result: {
        output: 'token=<redacted:API_KEY>',
        data: { '<redacted:API_KEY>': ['<redacted:API_KEY>', { nested: 'x<redacted:API_KEY>x' }], n: 1 },
        attachments: [{ name: '<redacted:API_KEY>.png' }],
      },
      redactions: { API_KEY: 5 },
    });
    const streamedArgs = events
      .filter((e) => e.type === 'ToolUseDelta' && e.callId === 'c1')
      .map((e) => (e.type === 'ToolUseDelta' ? e.argumentsDelta : ''))
      .join('');
    expect(streamedArgs).toBe('{"mode":"ok","key":"<redacted:API_KEY>"}');
    expect(results[1]).toMatchObject({ type: 'Success', result: 'final <redacted:API_KEY>' });
    expect(refused).toBeInstanceOf(Error);

    // The calls the model wrote stay as written in the history (the model wrote them), and so does the
    // tool name a result answers, which providers match against the call.
    const history = session.history.map((message) => {
      if (message.role === 'assistant') return { ...message, toolCalls: [] };
      if (message.role === 'tool') return { ...message, toolName: undefined };
      return message;
    });
    const channels: Record<string, unknown> = {
      events,
      hookViews,
      results,
      traces,
      history,
      logs: logger.lines,
      refused,
    };
    for (const [channel, value] of Object.entries(channels)) {
      expect(serialize(value), channel).not.toContain(SECRET);
    }
  });
});
