import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { inlineFile } from '../model/attachments.js';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { defineTool, toolDefinition } from './tool.js';
import { SessionContext, ToolContext } from './tool-context.js';
import { ParameterType, parametersJsonSchema } from './tool-parameter.js';
import { ToolResult } from './tool-result.js';

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: [{ name: 'city', type: ParameterType.STRING, required: true, description: 'City name' }],
  execute: (args) => ToolResult.success(`72°F in ${String(args['city'])}`),
});

describe('defineTool', () => {
  it('turns typed parameters into JSON Schema', () => {
    expect(weather.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
    });
    expect(weather.idempotent).toBe(false);
    expect(toolDefinition(weather)).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: weather.inputSchema,
    });
  });

  it('runs the executor with checked arguments', async () => {
    expect(await weather.execute({ city: 'Paris' }, ToolContext.noop())).toEqual(
      ToolResult.success('72°F in Paris'),
    );
    expect(await weather.execute({ city: 3 }, ToolContext.noop())).toEqual(
      ToolResult.failure(
        "invalid arguments for tool 'get_weather': field 'city' expected string, got integer",
      ),
    );
  });

  it('takes a zod schema, typing and transforming the arguments', async () => {
    const add = defineTool({
      name: 'add',
      description: 'adds',
      idempotent: true,
      schema: z.object({ a: z.number(), b: z.number().default(1) }),
      execute: ({ a, b }) => ToolResult.success(String(a + b), { data: { sum: a + b } }),
    });
    expect(add.inputSchema).not.toHaveProperty('$schema');
    expect(add.idempotent).toBe(true);
    expect(await add.execute({ a: 2 }, ToolContext.noop())).toMatchObject({
      type: 'Success',
      output: '3',
      data: { sum: 3 },
    });
    expect((await add.execute({}, ToolContext.noop())).output).toContain("field 'a' is required but missing");
  });

  it('takes a JSON Schema directly', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
      execute: async (args) => ToolResult.success(String(args['text'])),
    });
    expect((await echo.execute({ text: 'hi' }, ToolContext.noop())).output).toBe('hi');
    expect((await echo.execute({ nope: 1 }, ToolContext.noop())).type).toBe('Failure');
  });

  it('turns a thrown Error into a failed result the model sees', async () => {
    const broken = defineTool({
      name: 'b',
      description: '',
      parameters: [],
      execute: () => {
        throw new Error('disk full');
      },
    });
    expect(await broken.execute({}, ToolContext.noop())).toEqual(
      ToolResult.failure('Tool execution failed: disk full'),
    );
  });

  it('lets programming errors through as the same instance, never as a result', async () => {
    const bug = new ReferenceError('x is not defined');
    const broken = defineTool({
      name: 'b',
      description: '',
      parameters: [],
      execute: () => {
        throw bug;
      },
    });
    await expect(broken.execute({}, ToolContext.noop())).rejects.toBe(bug);
    const offByOne = defineTool({
      name: 'o',
      description: '',
      parameters: [],
      execute: async () => Promise.reject(new RangeError('Invalid array length')),
    });
    await expect(offByOne.execute({}, ToolContext.noop())).rejects.toBeInstanceOf(RangeError);
    const network = defineTool({
      name: 'n',
      description: '',
      parameters: [],
      execute: () => {
        throw new TypeError('fetch failed');
      },
    });
    expect((await network.execute({}, ToolContext.noop())).output).toBe(
      'Tool execution failed: fetch failed',
    );
  });

  it('lets non-Error throws and cancellations through', async () => {
    const odd = defineTool({
      name: 'odd',
      description: '',
      parameters: [],
      execute: () => {
        throw 'a string';
      },
    });
    await expect(odd.execute({}, ToolContext.noop())).rejects.toBe('a string');
    const aborting = defineTool({
      name: 'a',
      description: '',
      parameters: [],
      execute: () => {
        throw new DOMException('stop', 'AbortError');
      },
    });
    await expect(aborting.execute({}, ToolContext.noop())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("keeps the caller's cancellation intact even when the executor ignores it", async () => {
    const session = new AbortController();
    const context = ToolContext.create(SessionContext.create('s-1', session.signal), { timeoutMs: 60_000 });
    const stuck = defineTool({
      name: 'stuck',
      description: '',
      parameters: [],
      execute: () => new Promise<ToolResult>(() => undefined),
    });
    const running = stuck.execute({}, context);
    session.abort(new Error('interrupted'));
    await expect(running).rejects.toThrow('interrupted');
    await expect(stuck.execute({}, context)).rejects.toThrow('interrupted');
  });

  it('aborts at the deadline', async () => {
    vi.useFakeTimers();
    const context = ToolContext.create(SessionContext.forTesting(), { timeoutMs: 20 });
    const slow = defineTool({
      name: 'slow',
      description: '',
      parameters: [],
      execute: () => new Promise<ToolResult>(() => undefined),
    });
    const running = expect(slow.execute({}, context)).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(20);
    await running;
    vi.useRealTimers();
  });

  it('refuses a blank name', () => {
    expect(() =>
      defineTool({ name: '', description: '', parameters: [], execute: () => ToolResult.success('') }),
    ).toThrow(/tool name/);
  });

  it('refuses a malformed JSON Schema at definition, before any call', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        jsonSchema: { type: 'object', properties: { n: { type: 'int' } } } as never,
        execute: () => ToolResult.success(''),
      }),
    ).toThrow(/invalid JSON Schema/);
  });
});

describe('tool values', () => {
  it('describes array parameters with their item type', () => {
    expect(
      parametersJsonSchema([
        { name: 'tags', type: 'array', items: { name: 'tag', type: 'string' } },
        { name: 'rows', type: 'array', default: [] },
      ]),
    ).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        rows: { type: 'array', default: [], items: { type: 'object' } },
      },
    });
  });

  it('builds results', () => {
    const png = inlineFile(new Uint8Array([1]), 'image/png');
    const ok = ToolResult.success('done', { attachments: [png] });
    expect(ok).toEqual({ type: 'Success', output: 'done', attachments: [png] });
    expect(ToolResult.isSuccess(ok)).toBe(true);
    expect(ToolResult.failure('could not read', new Error('ENOENT')).output).toBe('could not read: ENOENT');
    expect(ToolResult.failure('bad', 'reason').output).toBe('bad: reason');
    expect(ToolResult.isSuccess(ToolResult.failure('x'))).toBe(false);
  });

  it('builds contexts', () => {
    const secrets = new SecretRegistry();
    const session = SessionContext.create('s', new AbortController().signal, secrets);
    expect(session.secrets).toBe(secrets);
    const context = ToolContext.create(session, { timeoutMs: 1000, now: 5000 });
    expect(context.deadline).toBe(6000);
    expect(ToolContext.remainingMs(context, 5500)).toBe(500);
    expect(ToolContext.remainingMs(context, 7000)).toBe(0);
    expect(() => SessionContext.create('', session.signal)).toThrow(/sessionId/);
  });
});
