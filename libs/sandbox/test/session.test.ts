/**
 * The provider inside a real AgentSession: started at open (a refusal makes open throw
 * SessionUnavailableError), the model's Execute calls run in the session's own sandbox with state kept
 * between them, the output redacted, and the sandbox killed at close.
 */
import { SecretRegistry, toolCall } from '@helios/core';
import { AgentSession, Permission, SessionUnavailableError } from '@helios/session';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { withExecutionProvider } from '../src/execution/with-execution-provider.js';
import { HostFunction, HostParameter } from '../src/host/host-function.js';
import { JavaScriptExecutionProvider } from '../src/javascript/javascript-execution-provider.js';

const providers: JavaScriptExecutionProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});

function provider(options: ConstructorParameters<typeof JavaScriptExecutionProvider>[0] = {}) {
  const created = new JavaScriptExecutionProvider({ warmUpMs: 0, ...options });
  providers.push(created);
  return created;
}

const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};

describe('Execute in an AgentSession', () => {
  it('runs the model’s snippets in the session’s sandbox, state kept, output redacted', async () => {
    const secrets = new SecretRegistry();
    secrets.register('API_KEY', 'key-abcdef-123456');
    const lookup = HostFunction(
      'apiKeyHint',
      'Returns a key',
      [HostParameter.optional('x', 'string', '')],
      () => 'key-abcdef-123456',
    );
    const model = new ScriptedModel()
      .thenToolCalls([
        toolCall('c1', 'Execute', {
          runtime: 'JAVASCRIPT',
          script: 'let total = sum([1, 2, 3]); println("total", total)',
        }),
      ])
      .thenToolCalls([
        toolCall('c2', 'Execute', {
          runtime: 'TYPESCRIPT',
          script: 'const doubled: number = total * 2; println(apiKeyHint()); doubled',
        }),
      ])
      .thenText('done');
    const execution = provider({ hostFunctions: [lookup] });
    const session = await AgentSession.open(
      withExecutionProvider(
        { model, secrets, permission: Permission.lockedDown(), logger: silent },
        execution,
      ),
    );
    expect(execution.sandboxCount).toBe(1);
    const result = await session.runBlocking('compute');
    expect(result.type).toBe('Success');
    const transcript = JSON.stringify(model.requests.at(-1)?.messages);
    expect(transcript).toContain('total 6');
    expect(transcript).toContain('<redacted:API_KEY>\\n=> 12');
    expect(transcript).not.toContain('key-abcdef-123456');
    await session.close();
    expect(execution.sandboxCount).toBe(0);
  });

  it('a provider that refuses makes open throw SessionUnavailableError', async () => {
    const execution = provider({ maxConcurrentSandboxes: 1 });
    const first = await AgentSession.open(
      withExecutionProvider({ model: new ScriptedModel(), logger: silent }, execution),
    );
    const error = await AgentSession.open(
      withExecutionProvider({ model: new ScriptedModel(), logger: silent }, execution),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionUnavailableError);
    expect((error as Error).message).toContain('all 1 sandboxes are in use');
    await first.close();
  });
});
