import { toolCall, ToolResult } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileKeyGlob } from '../src/permissions/key-glob.js';
import {
  AgentSession,
  argumentKey,
  bindTool,
  categoryDefault,
  formatRule,
  parseRule,
  Permission,
  PermissionEffect,
  PermissionMode,
  permissionRule,
  type QueryEvent,
  ToolCategory,
  UnknownQuestionError,
} from '../src/index.js';
import { customTool, drain, recordingLogger } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

const MODES = Object.values(PermissionMode);
const CATEGORIES = Object.values(ToolCategory);
const EXPECTED: Record<string, string[]> = {
  // DEFAULT, ACCEPT_EDITS, PLAN, LOCKED_DOWN, BYPASS_PERMISSIONS
  READ: ['ALLOW', 'ALLOW', 'ALLOW', 'DENY', 'ALLOW'],
  SEARCH: ['ALLOW', 'ALLOW', 'ALLOW', 'DENY', 'ALLOW'],
  WRITE: ['ASK', 'ALLOW', 'DENY', 'DENY', 'ALLOW'],
  EXECUTION: ['ASK', 'ASK', 'DENY', 'DENY', 'ALLOW'],
  NETWORK: ['ASK', 'ASK', 'ASK', 'DENY', 'ALLOW'],
  CONTROL: ['ALLOW', 'ALLOW', 'ALLOW', 'DENY', 'ALLOW'],
  DELEGATION: ['ALLOW', 'ALLOW', 'ALLOW', 'DENY', 'ALLOW'],
};

describe('permission rules', () => {
  it('parses and formats Tool(glob)', () => {
    expect(formatRule(parseRule('ASK', 'Write(**)'))).toBe('Write(**)');
    expect(formatRule(parseRule('ALLOW', 'Execute'))).toBe('Execute');
    expect(() => parseRule('ALLOW', 'bad rule(')).toThrow(/Tool\(glob\)/);
    expect(() => permissionRule('ALLOW', ' ')).toThrow(/tool name/);
  });

  it('matches globs: ** any, * no slash, ? one non-slash, metacharacters literal', () => {
    expect(compileKeyGlob('**')('a/b/c')).toBe(true);
    expect(compileKeyGlob('./*.ts')('./a.ts')).toBe(true);
    expect(compileKeyGlob('./*.ts')('./a/b.ts')).toBe(false);
    expect(compileKeyGlob('a?c')('abc')).toBe(true);
    expect(compileKeyGlob('a?c')('a/c')).toBe(false);
    expect(compileKeyGlob('a.(b)')('a.(b)')).toBe(true);
    expect(compileKeyGlob('a.(b)')('aX(b)')).toBe(false);
    const rule = parseRule('DENY', 'Read(./secret/**)');
    expect(rule.matches('Read', './secret/x')).toBe(true);
    expect(rule.matches('Read', './public/x')).toBe(false);
    expect(rule.matches('Write', './secret/x')).toBe(false);
  });

  it('matches like the RegExp it replaced: ** may be empty, * stops at /, newlines are characters', () => {
    const cases: Array<[string, string, boolean]> = [
      ['**', '', true],
      ['a**b', 'ab', true],
      ['a**b', 'a/x/\nb', true],
      ['a*b', 'a\nb', true],
      ['a*b', 'a/b', false],
      ['***', 'a/b', true],
      ['*/**', 'a/', true],
      ['?', '', false],
      ['[a]', '[a]', true],
      ['\\', '\\', true],
    ];
    for (const [glob, key, expected] of cases)
      expect([glob, key, compileKeyGlob(glob)(key)]).toEqual([glob, key, expected]);
  });

  it('matches hostile keys in linear time: Read(*_*_*_*_*_*!) against long paths', () => {
    const rule = parseRule('DENY', 'Read(*_*_*_*_*_*!)');
    const started = performance.now();
    expect(rule.matches('Read', '_'.repeat(200))).toBe(false);
    expect(rule.matches('Read', '_'.repeat(100_000))).toBe(false);
    expect(parseRule('DENY', 'Read(**_**_**_**_**_**!)').matches('Read', 'a_/'.repeat(30_000))).toBe(false);
    // A sanity bound only: the former RegExp needed polynomial time in the key's length.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('permission evaluation', () => {
  it('follows the category default table exhaustively (mode × category, no rule)', () => {
    for (const category of CATEGORIES) {
      MODES.forEach((mode, index) => {
        expect(categoryDefault(category, mode), `${category} ${mode}`).toBe(EXPECTED[category]?.[index]);
        expect(Permission.empty(mode).evaluate('T', '', category).effect, `${category} ${mode}`).toBe(
          EXPECTED[category]?.[index],
        );
      });
    }
  });

  it('orders deny → bypass → allow → ask → default, for every mode and category', () => {
    for (const mode of MODES) {
      for (const category of CATEGORIES) {
        const deny = new Permission(mode, { allow: ['T(**)'], ask: ['T(**)'], deny: ['T(**)'] });
        expect(deny.evaluate('T', 'x', category)).toEqual({
          effect: 'DENY',
          reason: 'deny rule T(**) matched T(x)',
        });
        const allow = new Permission(mode, { allow: ['T(**)'], ask: ['T(**)'] });
        expect(allow.evaluate('T', 'x', category).effect).toBe('ALLOW');
        const ask = new Permission(mode, { ask: ['T'] });
        expect(ask.evaluate('T', '', category).effect).toBe(mode === 'BYPASS_PERMISSIONS' ? 'ALLOW' : 'ASK');
        const other = new Permission(mode, { allow: ['U'], ask: ['U'], deny: ['U'] });
        expect(other.evaluate('T', '', category).effect).toBe(categoryDefault(category, mode));
      }
    }
    expect(Permission.empty('BYPASS_PERMISSIONS').evaluate('T', '', 'WRITE').reason).toBe(
      'mode BYPASS_PERMISSIONS',
    );
    expect(
      new Permission('DEFAULT', { ask: ['Write(**)'] }).evaluate('Write', './notes.md', 'WRITE').reason,
    ).toBe('ask rule Write(**) matched Write(./notes.md)');
    expect(Permission.empty().evaluate('T', '', 'WRITE').reason).toBe(
      'WRITE tools default to ask in DEFAULT mode',
    );
    expect(() => new Permission('NOPE' as PermissionMode)).toThrow(/permission mode/);
  });

  it('ships the curated policies', () => {
    const workspace = Permission.defaultInWorkspace();
    expect(workspace.evaluate('Read', './a', 'READ').effect).toBe('ALLOW');
    expect(workspace.evaluate('MemoryWrite', '/memories/x', 'WRITE').effect).toBe('ALLOW');
    expect(workspace.evaluate('Write', './a', 'WRITE').effect).toBe('ASK');
    expect(workspace.evaluate('Execute', 'BASH/ls', 'EXECUTION').effect).toBe('ASK');
    expect(Permission.planMode().evaluate('Write', './a', 'WRITE').effect).toBe('DENY');
    expect(Permission.lockedDown().evaluate('Execute', '', 'EXECUTION').effect).toBe('ALLOW');
    expect(Permission.lockedDown().evaluate('Read', '', 'READ').effect).toBe('DENY');
    expect(PermissionEffect.ASK).toBe('ASK');
  });
});

function writeTool(ran: string[]) {
  return bindTool(
    customTool('Write', (args) => {
      ran.push(String(args['path']));
      return ToolResult.success('written');
    }),
    ToolCategory.WRITE,
    { permissionKey: argumentKey('path') },
  );
}

describe('permissions in a session', () => {
  it('every session has a policy: by default a write asks, and the answer approves exactly that call', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('w1', 'Write', { path: './notes.md' })])
      .thenText('done');
    const session = await AgentSession.open({ model, logger: recordingLogger(), tools: [writeTool(ran)] });
    const stream = session.events();
    const pending = session.send('write it');
    let asked: QueryEvent | undefined;
    for await (const event of stream) {
      if (event.type === 'QuestionAsked') {
        asked = event;
        break;
      }
    }
    const request = asked?.type === 'QuestionAsked' ? asked.request : undefined;
    expect(request).toMatchObject({
      header: 'Permission',
      question: 'Allow Write(./notes.md)?\n\nArguments: {"path":"./notes.md"}',
      options: [
        { label: 'Allow', description: 'WRITE tools default to ask in DEFAULT mode' },
        { label: 'Deny', description: 'Refuse this tool call' },
      ],
      multiSelect: false,
    });
    expect(request?.questionId).toMatch(/^perm-/);
    expect(session.pendingQuestions()).toEqual([request]);
    expect(() => session.answer('perm-unknown', { selectedLabels: ['Allow'] })).toThrow(UnknownQuestionError);
    expect(() => session.answer(request?.questionId ?? '', { selectedLabels: [] })).toThrow(/at least one/);
    expect(() => session.answer(request?.questionId ?? '', { selectedLabels: ['Allow', ' '] })).toThrow(
      /non-blank/,
    );
    expect(() =>
      session.answer(request?.questionId ?? '', { selectedLabels: [3] as unknown as string[] }),
    ).toThrow(/non-blank/);
    session.answer(request?.questionId ?? '', { selectedLabels: ['allow'] });
    expect((await pending).type).toBe('Success');
    expect(ran).toEqual(['./notes.md']);
    expect(session.pendingQuestions()).toEqual([]);
    await session.close();
    stream.close();
  });

  it("an answer in the user's own words is taken, and approves nothing but Allow", async () => {
    const ran: string[] = [];
    const model = new ScriptedModel().thenToolCalls([toolCall('w1', 'Write', { path: 'x' })]).thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [writeTool(ran)],
      permission: new Permission('DEFAULT', { ask: ['Write(**)'] }),
    });
    const stream = session.events();
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    session.answer(session.pendingQuestions()[0]?.questionId ?? '', { selectedLabels: ['Maybe later'] });
    expect((await pending).type).toBe('Success');
    await session.close();
    expect(ran).toEqual([]);
    const blocked = (await drain(stream)).find((e) => e.type === 'ToolBlocked');
    expect(blocked).toMatchObject({ reason: expect.stringContaining('permission: user denied Write(x)') });
  });

  it('a Deny answer blocks the call with the user note', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel().thenToolCalls([toolCall('w1', 'Write', { path: 'x' })]).thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [writeTool(ran)],
      permission: new Permission('DEFAULT', { ask: ['Write(**)'] }),
    });
    const stream = session.events();
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    expect(session.pendingQuestions()[0]?.options[0]?.description).toBe(
      'ask rule Write(**) matched Write(x)',
    );
    session.answer(session.pendingQuestions()[0]?.questionId ?? '', {
      selectedLabels: ['Deny'],
      customText: 'not now',
    });
    await pending;
    await session.close();
    expect(ran).toEqual([]);
    const blocked = (await drain(stream)).find((e) => e.type === 'ToolBlocked');
    expect(blocked).toMatchObject({
      hookName: 'Permission',
      reason: 'permission: user denied Write(x): not now',
    });
  });

  it('deny rules and LOCKED_DOWN block without asking', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('w1', 'Write', { path: './etc/passwd' })])
      .thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [writeTool(ran)],
      permission: new Permission('BYPASS_PERMISSIONS', { deny: ['Write(./etc/**)'] }),
    });
    await session.send('go');
    expect(session.history.find((m) => m.role === 'tool')?.content).toBe(
      'blocked by hook: permission: deny rule Write(./etc/**) matched Write(./etc/passwd)',
    );
    await session.close();
    expect(ran).toEqual([]);
  });

  it('interrupt during a permission question blocks the call and cancels the question', async () => {
    const ran: string[] = [];
    const model = new ScriptedModel().thenToolCalls([toolCall('w1', 'Write', { path: 'x' })]);
    const session = await AgentSession.open({ model, logger: recordingLogger(), tools: [writeTool(ran)] });
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    session.interrupt();
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'interrupted' });
    expect(session.pendingQuestions()).toEqual([]);
    expect(session.history.find((m) => m.role === 'tool')?.content).toMatch(
      /^blocked by hook: permission: question not answered/,
    );
    await session.close();
  });

  it('close during a permission question ends the run "session closed"', async () => {
    const model = new ScriptedModel().thenToolCalls([toolCall('w1', 'Write', { path: 'x' })]);
    const session = await AgentSession.open({ model, logger: recordingLogger(), tools: [writeTool([])] });
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    await session.close();
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
  });
});

describe('AskUserQuestion', () => {
  const question = {
    question: 'Which colour?',
    header: 'Colour',
    options: [{ label: 'Red', description: 'warm' }, { label: 'Blue' }],
    multiSelect: true,
  };

  it('asks with a q- id and answers with the chosen labels and custom text', async () => {
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('q1', 'AskUserQuestion', question)])
      .thenText('noted');
    const session = await AgentSession.open({ model, logger: recordingLogger(), askUserQuestion: true });
    expect(model.requests.length).toBe(0);
    const pending = session.send('ask me');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    const request = session.pendingQuestions()[0];
    expect(request?.questionId).toMatch(/^q-/);
    expect(request).toMatchObject({
      header: 'Colour',
      multiSelect: true,
      options: [
        { label: 'Red', description: 'warm' },
        { label: 'Blue', description: '' },
      ],
    });
    session.answer(request?.questionId ?? '', { selectedLabels: ['Red', 'Blue'], customText: 'both' });
    expect((await pending).type).toBe('Success');
    expect(session.history.find((m) => m.role === 'tool')?.content).toBe('Red, Blue\nboth');
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['AskUserQuestion']);
    await session.close();
  });

  it('refuses a malformed question as a failed result', async () => {
    const bad = [
      { ...question, question: ' ' },
      { ...question, header: 'x'.repeat(13) },
      { ...question, options: [{ label: 'only' }] },
      { ...question, options: [{ label: '' }, { label: 'b' }] },
    ];
    for (const args of bad) {
      const model = new ScriptedModel()
        .thenToolCalls([toolCall('q1', 'AskUserQuestion', args)])
        .thenText('ok');
      const session = await AgentSession.open({ model, logger: recordingLogger(), askUserQuestion: true });
      await session.send('go');
      expect(session.history.find((m) => m.role === 'tool')?.content).toMatch(/^invalid question/);
      await session.close();
    }
  });

  it("a run's end cancels its unanswered model question", async () => {
    const model = new ScriptedModel().thenToolCalls([toolCall('q1', 'AskUserQuestion', question)]);
    const session = await AgentSession.open({ model, logger: recordingLogger(), askUserQuestion: true });
    const pending = session.send('go');
    await vi.waitFor(() => expect(session.pendingQuestions()).toHaveLength(1));
    session.interrupt();
    expect(await pending).toMatchObject({ type: 'Cancelled' });
    expect(session.pendingQuestions()).toEqual([]);
    expect(session.history.find((m) => m.role === 'tool')?.content).toBe(
      "tool 'AskUserQuestion' cancelled: interrupted",
    );
    await session.close();
  });

  it('refuses a deployer tool with the same name', async () => {
    const clash = bindTool(
      customTool('AskUserQuestion', () => ToolResult.success('')),
      ToolCategory.CONTROL,
    );
    await expect(
      AgentSession.open({ model: new ScriptedModel(), askUserQuestion: true, tools: [clash] }),
    ).rejects.toThrow(/two tools/);
  });
});
