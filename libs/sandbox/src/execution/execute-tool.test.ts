import { ToolContext } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { type CodeExecutionProvider, type ExecutionRequest, ExecutionResult } from './execution-types.js';
import { EXECUTE_TOOL, executeTool, executeToolBinding, resultText } from './execute-tool.js';
import { requestTimeout } from './request-timeout.js';
import { withExecutionProvider } from './with-execution-provider.js';

function fakeProvider(
  answer: Partial<ExecutionResult>,
  runtimes = ['JAVASCRIPT'] as const,
): CodeExecutionProvider & { requests: ExecutionRequest[] } {
  const requests: ExecutionRequest[] = [];
  return {
    name: 'Fake',
    requests,
    capabilities: {
      supportedRuntimes: [...runtimes],
      networkAllowed: false,
      filesystemWriteAllowed: false,
      defaultTimeoutMs: 1000,
      maxTimeoutMs: 2000,
      answerGraceMs: 500,
    },
    describe: () => 'Runs fake code.',
    onSessionStart: () => ({ type: 'Accept' }),
    onSessionEnd: () => undefined,
    execute: async (_session, request) => {
      requests.push(request);
      return { ...ExecutionResult.refusal(''), exitCode: 0, stderr: '', ...answer };
    },
    close: async () => undefined,
  };
}

describe('the Execute tool', () => {
  it('offers the provider runtimes and description, and runs the script in the calling session', async () => {
    const provider = fakeProvider({ stdout: 'hi\n', value: '2' });
    const tool = executeTool(provider);
    expect(tool.name).toBe(EXECUTE_TOOL);
    expect(tool.description).toBe('Runs fake code.');
    expect(tool.inputSchema).toMatchObject({
      required: ['runtime', 'script'],
      properties: { runtime: { enum: ['JAVASCRIPT'] } },
    });
    const result = await tool.execute({ runtime: 'JAVASCRIPT', script: '1+1' }, ToolContext.noop());
    expect(result).toMatchObject({
      type: 'Success',
      output: 'hi\n=> 2',
      data: { exitCode: 0, timedOut: false },
    });
    expect(provider.requests).toEqual([{ runtime: 'JAVASCRIPT', script: '1+1' }]);
  });

  it('refuses a runtime the provider lacks and extra arguments before running anything', async () => {
    const provider = fakeProvider({});
    const tool = executeTool(provider);
    expect(await tool.execute({ runtime: 'BASH', script: 'ls' }, ToolContext.noop())).toMatchObject({
      type: 'Failure',
    });
    expect(
      await tool.execute({ runtime: 'JAVASCRIPT', script: '1', extra: 1 }, ToolContext.noop()),
    ).toMatchObject({ type: 'Failure' });
    expect(provider.requests).toEqual([]);
  });

  it('answers a non-zero exit as a failure the model still reads', async () => {
    const tool = executeTool(fakeProvider({ exitCode: 1, stderr: 'TypeError: x' }));
    expect(await tool.execute({ runtime: 'JAVASCRIPT', script: 'x()' }, ToolContext.noop())).toEqual({
      type: 'Failure',
      output: 'STDERR:\nTypeError: x\n[exit code 1]',
      attachments: [],
    });
  });

  it('needs a provider with at least one runtime', () => {
    expect(() => executeTool(fakeProvider({}, [] as never))).toThrow(/supports no runtime/);
  });

  it('is bound as EXECUTION with a timeout covering the longest answer', () => {
    const binding = executeToolBinding(fakeProvider({}));
    expect(binding.category).toBe('EXECUTION');
    expect(binding.timeoutMs).toBe(2000 + 500 + 5000);
  });

  it('is added with the provider to session options', () => {
    const provider = fakeProvider({});
    const existing = executeToolBinding(fakeProvider({}));
    const options = withExecutionProvider({ model: {} as never, tools: [existing] }, provider);
    expect(options.executionProvider).toBe(provider);
    expect(options.tools?.map((b) => b.tool.name)).toEqual([EXECUTE_TOOL, EXECUTE_TOOL]);
    expect(withExecutionProvider({ model: {} as never }, provider).tools).toHaveLength(1);
  });
});

describe('resultText', () => {
  const base = ExecutionResult.refusal('');
  it('shows stdout, stderr, the value and a non-zero exit code, or says there was no output', () => {
    expect(resultText({ ...base, exitCode: 0, stderr: '' })).toBe('(no output)');
    expect(resultText({ ...base, exitCode: 3, stdout: 'a', stderr: 'b\n', value: 'v' })).toBe(
      'a\nSTDERR:\nb\n=> v\n[exit code 3]',
    );
    expect(resultText({ ...base, stderr: 'refused' })).toBe('STDERR:\nrefused\n[exit code -1]');
  });
});

describe('requestTimeout', () => {
  const capabilities = fakeProvider({}).capabilities;
  it('takes the default, caps at the maximum and refuses what is not a positive integer', () => {
    const request = { runtime: 'JAVASCRIPT', script: '' } as const;
    expect(requestTimeout(request, capabilities)).toBe(1000);
    expect(requestTimeout({ ...request, timeoutMs: 1500 }, capabilities)).toBe(1500);
    expect(requestTimeout({ ...request, timeoutMs: 99_999 }, capabilities)).toBe(2000);
    expect(requestTimeout({ ...request, timeoutMs: 0 }, capabilities)).toBe(
      'timeoutMs must be a positive integer, got 0',
    );
    expect(requestTimeout({ ...request, timeoutMs: 1.5 }, capabilities)).toMatch(/positive integer/);
  });
});
