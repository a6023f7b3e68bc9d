/**
 * What the scenario suites share: a provider with one started session, a `run` that executes a snippet
 * in it, and a check that the host process stayed healthy (responsive, memory not grown) after an attack.
 */
import { SecretRegistry, SessionContext } from '@helios/core';
import { expect } from 'vitest';
import { type ExecutionResult, type ExecutionRuntime } from '../src/execution/execution-types.js';
import { JavaScriptExecutionProvider } from '../src/javascript/javascript-execution-provider.js';
import { type JavaScriptProviderOptions } from '../src/javascript/javascript-config.js';

export interface OpenSandbox {
  readonly provider: JavaScriptExecutionProvider;
  readonly session: SessionContext;
  readonly secrets: SecretRegistry;
  run(
    script: string,
    options?: { runtime?: ExecutionRuntime; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<ExecutionResult>;
  close(): Promise<void>;
}

let sessions = 0;

/** A provider and one started session; tests keep timeouts short so their edges are cheap to reach. */
export async function openSandbox(
  options: JavaScriptProviderOptions = {},
  secrets = new SecretRegistry(),
): Promise<OpenSandbox> {
  const provider = new JavaScriptExecutionProvider({ warmUpMs: 20, ...options });
  const controller = new AbortController();
  const session = SessionContext.create(
    `sandbox-test-${process.pid}-${++sessions}`,
    controller.signal,
    secrets,
  );
  const started = await provider.onSessionStart(session);
  if (started.type !== 'Accept') throw new Error(`sandbox refused: ${started.reason}`);
  return {
    provider,
    session,
    secrets,
    run: (script, { runtime = 'JAVASCRIPT', timeoutMs, signal = new AbortController().signal } = {}) =>
      provider.execute(
        session,
        { runtime, script, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
        signal,
      ),
    close: async () => {
      controller.abort();
      await provider.onSessionEnd(session);
      await provider.close();
    },
  };
}

export interface HostBaseline {
  readonly rss: number;
}

export function hostBaseline(): HostBaseline {
  return { rss: process.memoryUsage().rss };
}

/** The host answers at once and has not grown by more than `slackMb` since the baseline. */
export async function expectHostHealthy(baseline: HostBaseline, slackMb = 150): Promise<void> {
  const started = performance.now();
  await new Promise((resolve) => setImmediate(resolve));
  expect(performance.now() - started).toBeLessThan(200);
  expect(process.memoryUsage().rss - baseline.rss).toBeLessThan(slackMb * 1024 * 1024);
}
