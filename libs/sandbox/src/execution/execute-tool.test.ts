import { ToolContext } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { type CodeExecutionProvider, type ExecutionRequest, ExecutionResult } from './execution-types.js';
import { EXECUTE_TOOL, executeTool, executeToolBinding } from './execute-tool.js';
import { requestTimeout } from './request-timeout.js';
import { resultText } from './tool-output.js';
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
      output: '[runtime JAVASCRIPT exit 0 duration 0ms]\nhi\n=> 2',
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
      output: '[runtime JAVASCRIPT exit 1 duration 0ms]\n[stderr]\nTypeError: x',
      attachments: [],
    });
  });

  it('passes args, workingDirectory, environment and stdin on, timeoutSeconds as whole milliseconds', async () => {
    const provider = fakeProvider({});
    const tool = executeTool(provider);
    const input = {
      runtime: 'JAVASCRIPT',
      script: 'args',
      args: ['a', 'b c'],
      workingDirectory: '/srv/work',
      timeoutSeconds: 0.0005,
      environment: { MODE: 'fast', _X1: '' },
      stdin: 'line\n',
    };
    await tool.execute(input, ToolContext.noop());
    await tool.execute({ runtime: 'JAVASCRIPT', script: '1', timeoutSeconds: 1e300 }, ToolContext.noop());
    expect(provider.requests).toEqual([
      {
        runtime: 'JAVASCRIPT',
        script: 'args',
        args: ['a', 'b c'],
        workingDirectory: '/srv/work',
        timeoutMs: 1,
        environment: { MODE: 'fast', _X1: '' },
        stdin: 'line\n',
      },
      { runtime: 'JAVASCRIPT', script: '1', timeoutMs: Number.MAX_SAFE_INTEGER },
    ]);
  });

  it('refuses malformed inputs with errors naming the field', async () => {
    const provider = fakeProvider({});
    const tool = executeTool(provider);
    const refused = [
      [{ timeoutSeconds: 0 }, 'timeoutSeconds'],
      [{ timeoutSeconds: '5' }, 'timeoutSeconds'],
      [{ args: ['a', 1] }, 'args'],
      [{ environment: { 'BAD-NAME': 'x' } }, 'environment'],
      [{ environment: { OK: 1 } }, 'environment'],
      [{ workingDirectory: '' }, 'workingDirectory'],
      [{ stdin: 7 }, 'stdin'],
    ] as const;
    for (const [extra, field] of refused) {
      const result = await tool.execute({ runtime: 'JAVASCRIPT', script: '1', ...extra }, ToolContext.noop());
      expect(result).toMatchObject({ type: 'Failure', output: expect.stringContaining(field) as unknown });
    }
    expect(provider.requests).toEqual([]);
  });

  it('cuts what the model reads at maxOutputCharsToModel, and refuses a negative limit', async () => {
    const long = fakeProvider({ stdout: 'y'.repeat(30) });
    const text = async (maxOutputCharsToModel: number) => {
      const result = await executeTool(long, { maxOutputCharsToModel }).execute(
        { runtime: 'JAVASCRIPT', script: '1' },
        ToolContext.noop(),
      );
      return result.type === 'Success' ? result.output : '';
    };
    expect(await text(30)).toBe(`[runtime JAVASCRIPT exit 0 duration 0ms]\n${'y'.repeat(30)}`);
    expect(await text(29)).toContain('[output cut: 1 more chars not shown (maxOutputCharsToModel 29)]');
    expect(() => executeTool(long, { maxOutputCharsToModel: -1 })).toThrow(/maxOutputCharsToModel/);
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
  it('heads the output with runtime, exit, TIMEOUT and duration, then stdout, the value and [stderr]', () => {
    expect(resultText('BASH', { ...base, exitCode: 0, stderr: '', durationMs: 12 })).toBe(
      '[runtime BASH exit 0 duration 12ms]\n(no output)',
    );
    expect(
      resultText('JAVASCRIPT', {
        ...base,
        exitCode: 3,
        stdout: 'a',
        stderr: 'b\n',
        value: 'v',
        durationMs: 5,
      }),
    ).toBe('[runtime JAVASCRIPT exit 3 duration 5ms]\na\n=> v\n[stderr]\nb');
    expect(
      resultText('BASH', { ...base, exitCode: 124, stderr: 'slow', timedOut: true, durationMs: 300 }),
    ).toBe('[runtime BASH exit 124 TIMEOUT duration 300ms]\n[stderr]\nslow');
  });

  it('keeps a body of exactly maxOutputCharsToModel and cuts one char more, saying how many', () => {
    const header = '[runtime BASH exit 0 duration 0ms]\n';
    expect(resultText('BASH', { ...base, exitCode: 0, stdout: 'x'.repeat(10) }, 10)).toBe(
      `${header}${'x'.repeat(10)}`,
    );
    expect(resultText('BASH', { ...base, exitCode: 0, stdout: 'x'.repeat(11) }, 10)).toBe(
      `${header}${'x'.repeat(10)}\n[output cut: 1 more chars not shown (maxOutputCharsToModel 10)]`,
    );
    expect(resultText('BASH', { ...base, exitCode: 0, stdout: 'x'.repeat(20_000) }, 0)).toBe(
      `${header}${'x'.repeat(20_000)}`,
    );
    expect(resultText('BASH', { ...base, exitCode: 0, stdout: 'x'.repeat(5_001) })).toContain(
      '[output cut: 1 more chars not shown (maxOutputCharsToModel 5000)]',
    );
  });

  it('never keeps half of a surrogate pair at the cut', () => {
    const text = resultText('BASH', { ...base, exitCode: 0, stdout: `abc${'😀'.repeat(3)}` }, 4);
    expect(text).toBe(
      '[runtime BASH exit 0 duration 0ms]\nabc\n[output cut: 6 more chars not shown (maxOutputCharsToModel 4)]',
    );
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
