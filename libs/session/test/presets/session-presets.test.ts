import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolCall, ToolResult } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AgentSession,
  bindTool,
  argumentKey,
  FileSystemMemoryBackend,
  formatRule,
  type Hook,
  Permission,
  PermissionMode,
  SessionOptionsBuilder,
  SessionPresets,
  type ToolBinding,
  ToolCategory,
  WorkspaceRoot,
} from '../../src/index.js';
import { customTool, recordingLogger } from '../helpers.js';
import { makeSandbox, type Sandbox, SECRET } from '../workspace/fixtures.js';

const READ_TOOLS = ['Read', 'Grep', 'Glob', 'LS'];

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
  writeFileSync(join(box.root, 'notes.txt'), 'alpha\nbeta\n');
});
afterEach(() => box.cleanup());

function names(tools: readonly ToolBinding[] | undefined): string[] {
  return (tools ?? []).map((binding) => binding.tool.name);
}

function policy(permission: Permission | undefined): unknown {
  return (
    permission && {
      mode: permission.mode,
      allow: permission.allow.map((rule) => formatRule(rule)),
      ask: permission.ask.map((rule) => formatRule(rule)),
      deny: permission.deny.map((rule) => formatRule(rule)),
    }
  );
}

/** A tool that records whether it ran. */
function recordingTool(name: string, category: ToolCategory, ran: string[]): ToolBinding {
  return bindTool(
    customTool(name, () => {
      ran.push(name);
      return ToolResult.success(`${name} ran`);
    }),
    category,
    { permissionKey: argumentKey('path', '.') },
  );
}

describe('SessionPresets', () => {
  it('minimal holds the model and nothing else', () => {
    const model = new ScriptedModel();
    const options = SessionPresets.minimal(model).build();
    expect(options.model).toBe(model);
    expect(options.tools).toEqual([]);
    expect(options.hooks).toEqual([]);
    expect(options.permission).toBeUndefined();
    expect(Object.keys(options).sort()).toEqual(['hooks', 'model', 'tools']);
  });

  it('readOnly: Read, Grep, Glob, LS on the root under planMode', () => {
    const builder = SessionPresets.readOnly(new ScriptedModel(), box.root);
    const options = builder.build();
    expect(names(options.tools)).toEqual(READ_TOOLS);
    expect(options.tools?.map((b) => b.category)).toEqual(['READ', 'SEARCH', 'SEARCH', 'READ']);
    expect(policy(options.permission)).toEqual(policy(Permission.planMode()));
    expect(options.permission?.mode).toBe(PermissionMode.PLAN);
    expect(builder.memoryBackend).toBeUndefined();
  });

  it('workspace: the read tools, MemoryRead and MemoryWrite, defaultInWorkspace', () => {
    const builder = SessionPresets.workspace(new ScriptedModel(), box.root);
    const options = builder.build();
    expect(names(options.tools)).toEqual([...READ_TOOLS, 'MemoryRead', 'MemoryWrite']);
    expect(options.tools?.map((b) => b.category)).toEqual([
      'READ',
      'SEARCH',
      'SEARCH',
      'READ',
      'READ',
      'WRITE',
    ]);
    expect(policy(options.permission)).toEqual(policy(Permission.defaultInWorkspace()));
    expect(builder.memoryBackend).toBeInstanceOf(FileSystemMemoryBackend);
  });

  it('accepts a WorkspaceRoot as well as a path', async () => {
    const root = new WorkspaceRoot(box.root);
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('r1', 'Read', { path: 'notes.txt' })])
      .thenText('ok');
    const session = await AgentSession.open(
      SessionPresets.workspace(model, root).with({ logger: recordingLogger() }).build(),
    );
    await session.send('go');
    expect(session.history.find((m) => m.role === 'tool')?.content).toContain('alpha');
    await session.close();
  });

  it('a path that is not a directory fails at the preset, not later', () => {
    expect(() => SessionPresets.readOnly(new ScriptedModel(), join(box.root, 'missing'))).toThrow();
    expect(() => SessionPresets.workspace(new ScriptedModel(), join(box.root, 'notes.txt'))).toThrow();
  });
});

describe('SessionOptionsBuilder', () => {
  it('withTool appends, withTools replaces', () => {
    const ran: string[] = [];
    const extra = recordingTool('extra', ToolCategory.READ, ran);
    const other = recordingTool('other', ToolCategory.READ, ran);
    const builder = SessionPresets.readOnly(new ScriptedModel(), box.root).withTool(extra);
    expect(names(builder.build().tools)).toEqual([...READ_TOOLS, 'extra']);
    builder.withTool(other);
    expect(names(builder.tools)).toEqual([...READ_TOOLS, 'extra', 'other']);
    builder.withTools([other]);
    expect(names(builder.build().tools)).toEqual(['other']);
    builder.withTools([]);
    expect(builder.build().tools).toEqual([]);
  });

  it('withTools keeps the memory backend tools; withMemoryBackend(undefined) drops them', () => {
    const ran: string[] = [];
    const builder = SessionPresets.workspace(new ScriptedModel(), box.root).withTools([
      recordingTool('only', ToolCategory.READ, ran),
    ]);
    expect(names(builder.build().tools)).toEqual(['only', 'MemoryRead', 'MemoryWrite']);
    expect(names(builder.withMemoryBackend(undefined).build().tools)).toEqual(['only']);
  });

  it('withHook appends, withHooks replaces; the other setters and with() set their fields', () => {
    const a: Hook = { name: 'a', type: 'PreToolUse', handle: () => undefined };
    const b: Hook = { name: 'b', type: 'PreToolUse', handle: () => undefined };
    const first = new ScriptedModel();
    const second = new ScriptedModel();
    const builder = new SessionOptionsBuilder(first).withHook(a).withHook(b);
    expect(builder.build().hooks).toEqual([a, b]);
    builder
      .withHooks([b])
      .withModel(second)
      .withSystemPrompt('be brief')
      .withSessionId('sess-preset-1')
      .withAskUserQuestion()
      .withPermission(Permission.lockedDown())
      .with({ eventBufferSize: 8 });
    const options = builder.build();
    expect(builder.model).toBe(second);
    expect(options).toMatchObject({
      model: second,
      hooks: [b],
      systemPrompt: 'be brief',
      sessionId: 'sess-preset-1',
      askUserQuestion: true,
      eventBufferSize: 8,
    });
    expect(options.permission?.mode).toBe(PermissionMode.LOCKED_DOWN);
    expect(Object.isFrozen(options)).toBe(true);
  });

  it('build() returns independent snapshots', () => {
    const ran: string[] = [];
    const builder = SessionPresets.minimal(new ScriptedModel());
    const before = builder.build();
    builder.withTool(recordingTool('later', ToolCategory.READ, ran));
    expect(before.tools).toEqual([]);
    expect(names(builder.build().tools)).toEqual(['later']);
    expect(builder.build()).not.toBe(builder.build());
  });

  it('from(options) round-trips every field', () => {
    const ran: string[] = [];
    const options = SessionPresets.workspace(new ScriptedModel(), box.root)
      .withTool(recordingTool('extra', ToolCategory.READ, ran))
      .withSystemPrompt('sys')
      .build();
    const again = SessionOptionsBuilder.from(options).build();
    expect(again).toEqual(options);
    expect(SessionOptionsBuilder.from({ model: options.model }).build()).toEqual({
      model: options.model,
      tools: [],
      hooks: [],
    });
  });

  it('refuses a missing model', () => {
    expect(() => new SessionOptionsBuilder(undefined as never)).toThrow(/need a model/);
    expect(() => SessionPresets.minimal(new ScriptedModel()).withModel(null as never)).toThrow(
      /need a model/,
    );
  });
});

describe('two tools with one name', () => {
  it('fail open: a second Read, and a deployer MemoryWrite next to the backend', async () => {
    const ran: string[] = [];
    const readOnly = SessionPresets.readOnly(new ScriptedModel(), box.root).withTool(
      recordingTool('Read', ToolCategory.READ, ran),
    );
    await expect(AgentSession.open(readOnly.build())).rejects.toThrow(/two tools are named 'Read'/);
    const workspace = SessionPresets.workspace(new ScriptedModel(), box.root).withTool(
      recordingTool('MemoryWrite', ToolCategory.WRITE, ran),
    );
    await expect(AgentSession.open(workspace.build())).rejects.toThrow(/two tools are named 'MemoryWrite'/);
    expect(ran).toEqual([]);
  });

  it('withTools replacing the clash opens', async () => {
    const ran: string[] = [];
    const builder = SessionPresets.readOnly(new ScriptedModel(), box.root)
      .withTool(recordingTool('Read', ToolCategory.READ, ran))
      .withTools([recordingTool('Read', ToolCategory.READ, ran)]);
    const session = await AgentSession.open(builder.with({ logger: recordingLogger() }).build());
    await session.close();
  });
});

describe('a readOnly session', () => {
  it('reads a file through Read and is refused an escape and a write', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('r1', 'Read', { path: 'notes.txt' })])
      .thenToolCalls([toolCall('r2', 'Read', { path: '../outside/secret.txt' })])
      .thenToolCalls([toolCall('r3', 'Read', { path: join(box.outside, 'secret.txt') })])
      .thenToolCalls([toolCall('w1', 'Write', { path: 'notes.txt', content: 'x' })])
      .thenText('done');
    const options = SessionPresets.readOnly(model, box.root)
      .withTool(recordingTool('Write', ToolCategory.WRITE, ran))
      .with({ logger: recordingLogger() })
      .build();
    const session = await AgentSession.open(options);
    const result = await session.send('read my notes');
    expect(result).toMatchObject({ type: 'Success', result: 'done' });
    const tool = session.history.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tool).toHaveLength(4);
    expect(tool[0]).toMatch(/1\talpha/);
    expect(tool[0]).toMatch(/2\tbeta/);
    for (const escape of [tool[1], tool[2]]) {
      expect(escape).not.toContain(SECRET);
      expect(escape).not.toMatch(/alpha/);
    }
    expect(tool[3]).toMatch(/permission: .*WRITE tools default to deny in PLAN mode/);
    expect(ran).toEqual([]);
    expect(session.pendingQuestions()).toEqual([]);
    await session.close();
  });
});

describe('a workspace session', () => {
  it('writes memory without asking and asks before a Write', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel()
      .thenToolCalls([
        toolCall('m1', 'MemoryWrite', { op: 'create', path: '/memories/a.md', content: 'remember\n' }),
      ])
      .thenToolCalls([toolCall('w1', 'Write', { path: './notes.txt' })])
      .thenText('done');
    const session = await AgentSession.open(
      SessionPresets.workspace(model, box.root)
        .withTool(recordingTool('Write', ToolCategory.WRITE, ran))
        .with({ logger: recordingLogger() })
        .build(),
    );
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    const [question] = session.pendingQuestions();
    expect(question?.question).toMatch(/^Allow Write\(\.\/notes\.txt\)\?/);
    expect(question?.options[0]?.description).toBe('ask rule Write(./**) matched Write(./notes.txt)');
    const memory = await new FileSystemMemoryBackend(new WorkspaceRoot(box.root)).view('/memories/a.md');
    expect(memory).toContain('remember');
    expect(ran).toEqual([]);
    session.interrupt();
    expect(await pending).toMatchObject({ type: 'Cancelled' });
    await session.close();
  });
});
