import {
  SecretRegistry,
  type Trace,
  TraceDetail,
  toolCall,
  ToolResult,
  TransientStreamError,
  Backoff,
  inlineFile,
} from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentSession, bindTool, HookOutcome, ToolCategory, type ToolBinding } from '../src/index.js';
import { SessionRedaction } from '../src/redaction.js';
import { customTool, drain, recordingLogger } from './helpers.js';

const SECRET = 'sk-live-0123456789abcdef';
const LATE = 'late-secret-value-42';

afterEach(() => {
  vi.useRealTimers();
});

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function serialize(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

describe('secret redaction', () => {
  it('redacts keys and string values, errors and counts', () => {
    const registry = new SecretRegistry();
    const none = new SessionRedaction(registry);
    const plain = ToolResult.success('x', { data: { k: 'v' } });
    expect(none.result(plain)).toEqual({ result: plain, counts: {} });
    const args = { a: 1 };
    expect(none.args(args)).toBe(args);
    registry.register('KEY', SECRET);
    const redaction = new SessionRedaction(registry);
    expect(redaction.value({ [SECRET]: [SECRET, 1, null, { x: SECRET }] })).toEqual({
      '<redacted:KEY>': ['<redacted:KEY>', 1, null, { x: '<redacted:KEY>' }],
    });
    const file = inlineFile(new Uint8Array([1]), 'image/png', `shot-${SECRET}.png`);
    const leaky = ToolResult.success(`${SECRET} ${SECRET}`, {
      data: { [SECRET]: [SECRET, 2] },
      attachments: [file],
    });
    expect(redaction.result(leaky)).toEqual({
      result: {
        type: 'Success',
        output: '<redacted:KEY> <redacted:KEY>',
        data: { '<redacted:KEY>': ['<redacted:KEY>', 2] },
        attachments: [{ ...file, name: 'shot-<redacted:KEY>.png' }],
      },
      counts: { KEY: 5 },
    });
    const clean = ToolResult.success('clean', { data: { a: 'b' } });
    expect(redaction.result(clean)).toEqual({ result: clean, counts: {} });
    const logged = redaction.errorForLog(new TypeError(`bad ${SECRET}`)) as Error;
    expect(logged.message).toBe('bad <redacted:KEY>');
    expect(logged.name).toBe('TypeError');
    expect(logged.stack).not.toContain(SECRET);
    expect(redaction.errorForLog('plain')).toBe('plain');
  });

  it('sessions opened from one options object share its default registry; other options get their own', async () => {
    const options = { model: new ScriptedModel(), logger: recordingLogger() };
    const first = await AgentSession.open(options);
    const second = await AgentSession.open(options);
    const other = await AgentSession.open({ ...options });
    expect(second.secrets).toBe(first.secrets);
    expect(other.secrets).not.toBe(first.secrets);
    first.secrets.register('SHARED', SECRET);
    expect(second.secrets.names()).toEqual(['SHARED']);
    expect(other.secrets.size).toBe(0);
    const explicit = new SecretRegistry();
    expect((await AgentSession.open({ ...options, secrets: explicit })).secrets).toBe(explicit);
    await Promise.all([first.close(), second.close(), other.close()]);
  });

  it('no secret planted in tool output, arguments or errors appears in events, hooks, errors, traces or tool history', async () => {
    vi.useFakeTimers();
    const registry = new SecretRegistry();
    registry.register('API_KEY', SECRET);
    const leaky: ToolBinding = bindTool(
      customTool('leaky', (args, signal) => {
        void signal;
        if (args['fail'] === true) throw new Error(`cannot use ${SECRET}`);
        if (args['register'] === true) registry.register('LATE', LATE);
        return ToolResult.success(`token=${SECRET} and ${LATE}`);
      }),
      ToolCategory.READ,
    );
    const hookSaw: string[] = [];
    const traces: Trace[] = [];
    const model = new ScriptedModel()
      .thenToolCalls([
        toolCall('1', 'leaky', { [SECRET]: SECRET, register: true }),
        toolCall('2', 'leaky', { fail: true }),
        toolCall('3', 'leaky', { mutate: true }),
        toolCall('4', 'leaky', { block: SECRET }),
      ])
      .thenError(new TransientStreamError(`reset while sending ${SECRET}`, 'p'))
      .thenError(new Error(`provider echoed ${SECRET}`));
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
          type: 'PreToolUse',
          handle: (call) => {
            if (call.arguments['mutate'] === true) return HookOutcome.mutateArgs({ note: SECRET });
            if (call.arguments['block'] !== undefined) return HookOutcome.block(`no ${SECRET}`);
            return undefined;
          },
        },
        {
          type: 'PostToolUse',
          handle: (_call, result) => {
            hookSaw.push(result.output);
            return result.output.includes('token=') ? HookOutcome.mutateResult(`again ${SECRET}`) : undefined;
          },
        },
        {
          type: 'PreModelTurn',
          handle: () => {
            throw new Error(`hook failure ${SECRET}`);
          },
        },
      ],
    });
    const stream = session.events();
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(100);
    const result = await pending;
    await session.close();
    const events = await drain(stream);
    expect(result.type).toBe('ErrorDuringExecution');
    const toolHistory = session.history.filter((m) => m.role === 'tool');
    const channels = {
      events: serialize(events),
      result: serialize(result),
      hooks: serialize(hookSaw),
      traces: serialize(traces),
      toolHistory: serialize(toolHistory),
      logs: serialize(
        logger.lines.map((l) => [
          l.message,
          (l.error as Error | undefined)?.message,
          (l.error as Error | undefined)?.stack,
        ]),
      ),
    };
    for (const [channel, text] of Object.entries(channels)) {
      expect(count(text, SECRET), channel).toBe(0);
      expect(count(text, LATE), channel).toBe(0);
    }
    const results = events.filter((e) => e.type === 'ToolResult');
    expect(results[0]).toMatchObject({
      redactions: { API_KEY: 1 },
      call: { arguments: { '<redacted:API_KEY>': '<redacted:API_KEY>' } },
    });
    expect(results[1]).toMatchObject({ redactions: { API_KEY: 1 } });
    expect(events.find((e) => e.type === 'ToolMutated')).toMatchObject({
      inputAfter: { note: '<redacted:API_KEY>' },
    });
    expect(events.find((e) => e.type === 'ToolBlocked')).toMatchObject({ reason: 'no <redacted:API_KEY>' });
    expect(events.find((e) => e.type === 'TurnRetried')).toMatchObject({
      error: { message: 'reset while sending <redacted:API_KEY>' },
    });
    expect(toolHistory[0]?.content).toBe('again <redacted:API_KEY>');
    expect(toolHistory[1]?.content).toBe("tool 'leaky' threw: cannot use <redacted:API_KEY>");
    // The model's own calls stay as written in the history, as the promise says.
    expect(serialize(session.history.filter((m) => m.role === 'assistant'))).toContain(SECRET);
    expect(traces).toHaveLength(1);
    expect(traces[0]?.spans.some((s) => s.kind === 'tool.leaky' && s.input !== undefined)).toBe(true);
  });
});
