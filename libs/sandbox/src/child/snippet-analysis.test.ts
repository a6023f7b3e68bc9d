import { describe, expect, it } from 'vitest';
import { type PolicyRules } from './protocol.js';
import { analyseSnippet } from './snippet-analysis.js';
import { cutValue, MAX_VALUE_CHARS } from './protocol.js';

describe('cutValue', () => {
  it('keeps a value of the limit and cuts one longer, saying by how much', () => {
    expect(cutValue('v'.repeat(MAX_VALUE_CHARS))).toHaveLength(MAX_VALUE_CHARS);
    expect(cutValue('v'.repeat(MAX_VALUE_CHARS + 2)).slice(MAX_VALUE_CHARS)).toBe(
      '… [value cut: 2 more chars]',
    );
  });
});

const NONE: PolicyRules = {
  deniedGlobals: [],
  denyDynamicImport: false,
  denyFunctionConstructor: false,
  denyGlobalMutation: false,
};
const ALL: PolicyRules = {
  deniedGlobals: ['require', 'process', 'eval'],
  denyDynamicImport: true,
  denyFunctionConstructor: true,
  denyGlobalMutation: true,
};

function ready(source: string, language: 'javascript' | 'typescript' = 'javascript', rules = NONE) {
  const analysis = analyseSnippet(source, language, rules);
  if (analysis.type !== 'Ready') throw new Error(analysis.error);
  return analysis;
}

function refusal(source: string, rules = ALL): string {
  const analysis = analyseSnippet(source, 'javascript', rules);
  if (analysis.type !== 'Refused') throw new Error(`not refused: ${source}`);
  return analysis.error;
}

describe('the REPL rewrite', () => {
  it('turns top-level let, const and class into var bindings, keeping every line in place', () => {
    const source =
      'let a = 1;\nconst b = 2, c = 3;\nclass K extends Object { m() { let inner = 1; return inner; } }\nvar d = 4;';
    const { code } = ready(source);
    expect(code).toBe(
      'var a = 1;\nvar b = 2, c = 3;\nvar K = class K extends Object { m() { let inner = 1; return inner; } };\nvar d = 4;',
    );
  });

  it('leaves blocks, loops and functions with their own scoping', () => {
    const source = '{ let a = 1 }\nfor (let i = 0; i < 1; i++) {}\nfunction f() { const x = 1; return x }';
    expect(ready(source).code).toBe(source);
  });

  it('notes top-level await, but not await inside functions', () => {
    expect(ready('await 1').topLevelAwait).toBe(true);
    expect(ready('for await (const x of []) {}').topLevelAwait).toBe(true);
    expect(ready('for (const x of []) {}').topLevelAwait).toBe(false);
    expect(ready('async function f() { await 1 }; const g = async () => { await 2 }').topLevelAwait).toBe(
      false,
    );
  });
});

describe('TypeScript', () => {
  it('strips types without checking them', () => {
    const { code } = ready(
      'interface P { x: number }\nconst p: P = { x: "not a number" as any };\nenum E { A }\np.x',
      'typescript',
    );
    expect(code).not.toContain('interface');
    expect(code).toContain('var p');
    expect(code).toContain('var E;');
    expect(code.split('\n')).toHaveLength(4); // lines stay where they were
  });

  it('refuses what does not parse, saying it is TypeScript', () => {
    const analysis = analyseSnippet('const x: = 1', 'typescript', NONE);
    expect(analysis).toMatchObject({
      type: 'Refused',
      error: expect.stringMatching(/^SyntaxError: .*\(TypeScript\)$/) as unknown,
    });
  });
});

describe('parsing', () => {
  it('refuses a syntax error with its position', () => {
    expect(analyseSnippet('let = ;', 'javascript', NONE)).toEqual({
      type: 'Refused',
      error: 'SyntaxError: Unexpected token (1:6)',
    });
  });

  it('refuses static import and export: snippets are scripts', () => {
    expect(analyseSnippet("import fs from 'fs'", 'javascript', ALL)).toMatchObject({ type: 'Refused' });
  });

  it('skips the parse when no word it acts on appears, leaving syntax errors to the engine', () => {
    expect(analyseSnippet('1 + 1', 'javascript', ALL)).toEqual({
      type: 'Ready',
      code: '1 + 1',
      topLevelAwait: false,
    });
    expect(analyseSnippet('1 +', 'javascript', NONE)).toEqual({
      type: 'Ready',
      code: '1 +',
      topLevelAwait: false,
    });
    expect(analyseSnippet('$let + let$ + _await', 'javascript', NONE)).toMatchObject({
      type: 'Ready',
      code: '$let + let$ + _await',
    });
    expect(analyseSnippet('x.$require', 'javascript', ALL)).toMatchObject({ type: 'Ready' });
  });

  it('parses whenever an escape could spell a word it acts on', () => {
    expect(analyseSnippet("\\u0072equire('fs')", 'javascript', ALL)).toMatchObject({
      type: 'Refused',
      error: expect.stringContaining('require is denied') as unknown,
    });
    const dollar = { ...NONE, deniedGlobals: ['$secret'] };
    expect(analyseSnippet('$secret + 1', 'javascript', dollar)).toMatchObject({ type: 'Refused' });
  });
});

describe('the policy check', () => {
  it('names each denied construct, with its rule and position', () => {
    expect(refusal("const fs = require('fs')")).toBe(
      'SandboxPolicyViolation: require is denied by the sandbox policy (rule deniedGlobals:require) at line 1, column 12',
    );
    expect(refusal('x = 1;\nprocess.exit()')).toContain(
      'process is denied by the sandbox policy (rule deniedGlobals:process) at line 2, column 1',
    );
    expect(refusal("eval('1')")).toContain('eval is denied');
    expect(refusal("import('fs')")).toContain(
      'import() is denied by the sandbox policy (rule denyDynamicImport)',
    );
    expect(refusal("Function('return this')()")).toContain('Function constructor is denied');
    expect(refusal("new Function('x')")).toContain('Function constructor is denied');
    expect(refusal("(() => 0).constructor('return this')()")).toContain('Function constructor is denied');
    expect(refusal("new (Object.getPrototypeOf(async function () {}))['constructor']('x')")).toContain(
      'Function constructor is denied',
    );
    expect(refusal('globalThis.x = 1')).toContain('globalThis mutation is denied');
    expect(refusal('self["x"]++')).toContain('globalThis mutation is denied');
    expect(refusal('delete globalThis.print')).toContain('globalThis mutation is denied');
    expect(refusal('Object.defineProperty(globalThis, "x", { value: 1 })')).toContain(
      'globalThis mutation is denied',
    );
    expect(refusal('Reflect.set(global, "x", 1)')).toContain('globalThis mutation is denied');
  });

  it('lets computed calls that are not the constructor through', () => {
    expect(ready('const fns = [() => 1]; fns[0]() + fns["0"]()', 'javascript', ALL).code).toContain(
      'var fns',
    );
  });

  it('finds a denied name in a shorthand property, but not as a property key or member name', () => {
    expect(refusal('const o = { process }')).toContain('process is denied');
    expect(
      ready('const o = { process: 1, require() {} }; o.process + o["eval"]', 'javascript', ALL).code,
    ).toContain('var o');
  });

  it('allows ordinary reads and writes that only look alike', () => {
    const source =
      'const g = globalThis.print; const o = {}; o.x = 1; Object.assign(o, { y: 2 }); delete o.x; globalThis.a?.b; typeof o.constructor';
    expect(ready(source, 'javascript', ALL).code).toContain('var g');
  });

  it('denies nothing under rules that deny nothing', () => {
    expect(
      ready("require; process; eval('1'); Function(); globalThis.x = 1; import('x')").topLevelAwait,
    ).toBe(false);
  });
});
