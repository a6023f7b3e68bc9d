import { SecretRegistry, type SessionContext } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentSession,
  type ExecutionProvider,
  NOOP_EXECUTION_PROVIDER,
  SessionStartOutcome,
  SessionUnavailableError,
} from '../src/index.js';
import { drain, recordingLogger } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

function provider(overrides: Partial<ExecutionProvider> = {}): ExecutionProvider & { ends: number } {
  const recorder = {
    name: 'TestProvider',
    ends: 0,
    onSessionStart: () => SessionStartOutcome.accept(),
    onSessionEnd(): void {
      recorder.ends += 1;
    },
    ...overrides,
  };
  return recorder;
}

describe('execution provider lifecycle', () => {
  it('the default accepts and holds nothing', async () => {
    expect(await NOOP_EXECUTION_PROVIDER.onSessionStart({} as SessionContext)).toEqual({ type: 'Accept' });
    expect(NOOP_EXECUTION_PROVIDER.onSessionEnd({} as SessionContext, new AbortController().signal)).toBe(
      undefined,
    );
  });

  it('starts at open; close cancels the run, then ends the provider, then the event streams', async () => {
    const order: string[] = [];
    let context: SessionContext | undefined;
    const model = new ScriptedModel().thenText('slow', { chunkDelayMs: 60_000 });
    const execution = provider({
      onSessionStart: (ctx) => {
        context = ctx;
        order.push('start');
        return SessionStartOutcome.accept();
      },
      onSessionEnd: (ctx, signal) => {
        order.push(
          `end (signal ${ctx.signal.aborted ? 'fired' : 'quiet'}, deadline ${String(signal.aborted)})`,
        );
      },
    });
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      executionProvider: execution,
    });
    expect(context?.sessionId).toBe(session.sessionId);
    const events = session.events();
    const drained = drain(events).then(() => order.push('streams ended'));
    const run = session.send('go').then((result) => order.push(`run ${result.type}`));
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    await session.close();
    await Promise.all([run, drained]);
    expect(order).toEqual(['start', 'run Cancelled', 'end (signal fired, deadline false)', 'streams ended']);
    await session.close();
    expect(order.filter((step) => step.startsWith('end'))).toHaveLength(1);
  });

  it('a refusal makes open throw SessionUnavailableError, redacted, and nothing is ended', async () => {
    const secrets = new SecretRegistry();
    secrets.register('TOKEN', 'hunter2-secret-token');
    const refusing = provider({
      onSessionStart: () =>
        SessionStartOutcome.refuse('no sandbox for hunter2-secret-token', new Error('ENOENT')),
    });
    const error = await AgentSession.open({
      model: new ScriptedModel(),
      secrets,
      executionProvider: refusing,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionUnavailableError);
    expect((error as Error).message).toContain('TestProvider refused');
    expect((error as Error).message).not.toContain('hunter2-secret-token');
    expect(((error as Error).cause as Error).message).toBe('ENOENT');
    expect(refusing.ends).toBe(0);
    const bare = await AgentSession.open({
      model: new ScriptedModel(),
      executionProvider: provider({ onSessionStart: () => SessionStartOutcome.refuse('busy') }),
    }).catch((e: unknown) => e);
    expect((bare as Error).cause).toBeUndefined();
  });

  it('an ordinary failure at start is a refusal; a programming error passes through as itself', async () => {
    const failing = provider({
      onSessionStart: () => Promise.reject(new Error('docker not running')),
    });
    await expect(
      AgentSession.open({ model: new ScriptedModel(), executionProvider: failing }),
    ).rejects.toMatchObject({
      name: 'SessionUnavailableError',
      message: expect.stringContaining('docker not running'),
    });
    const odd = provider({
      onSessionStart: () => {
        throw 'not an error';
      },
    });
    await expect(AgentSession.open({ model: new ScriptedModel(), executionProvider: odd })).rejects.toBe(
      'not an error',
    );
  });

  it('an end past the close deadline is not waited for: its signal fires and close returns', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    let endSignal: AbortSignal | undefined;
    const hanging = provider({
      onSessionEnd: (_ctx, signal) => {
        endSignal = signal;
        return new Promise<void>(() => undefined);
      },
    });
    const session = await AgentSession.open({
      model: new ScriptedModel(),
      logger,
      executionProvider: hanging,
      limits: { stopGraceMs: 1_000 },
    });
    const events = session.events();
    let closed = false;
    void session.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toBe(true);
    expect(endSignal?.aborted).toBe(true);
    expect(events.closed).toBe(true);
    expect(logger.lines.some((line) => line.message.includes('still ending at the close deadline'))).toBe(
      true,
    );
  });

  it('a failing end is logged (error level for a programming error) and close still never throws', async () => {
    const logger = recordingLogger();
    const failing = await AgentSession.open({
      model: new ScriptedModel(),
      logger,
      executionProvider: provider({
        onSessionEnd: () => {
          throw new Error('cleanup failed');
        },
      }),
    });
    await failing.close();
    const broken = await AgentSession.open({
      model: new ScriptedModel(),
      logger,
      executionProvider: provider({
        onSessionEnd: () => Promise.reject(new ReferenceError('bug')),
      }),
    });
    await broken.close();
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', 'execution provider TestProvider failed to end'],
      ['error', 'execution provider TestProvider failed to end'],
    ]);
  });
});
