/**
 * One pass over a snippet before the engine sees it: transpile TypeScript, parse, apply the policy,
 * rewrite top-level declarations for the REPL, and note whether it awaits at top level. A snippet that
 * fails any step is refused with a message the model can act on.
 *
 * A snippet in which none of the words these steps act on appears (and no escape that could spell one)
 * would come out of them unchanged, so it skips the parse; the engine reports its syntax errors then.
 */
import { parse, type Program } from 'acorn';
import { base, recursive } from 'acorn-walk';
import { findViolation } from './policy-check.js';
import { type PolicyRules, type SnippetLanguage } from './protocol.js';
import { rewriteTopLevel } from './repl-rewrite.js';
import { transpileTypeScript } from './typescript.js';

export type Analysis =
  | { readonly type: 'Ready'; readonly code: string; readonly topLevelAwait: boolean }
  | { readonly type: 'Refused'; readonly error: string };

export function analyseSnippet(source: string, language: SnippetLanguage, rules: PolicyRules): Analysis {
  let code = source;
  if (language === 'typescript') {
    try {
      code = transpileTypeScript(source);
    } catch (error) {
      return { type: 'Refused', error: `SyntaxError: ${(error as Error).message} (TypeScript)` };
    }
  }
  if (!triggers(rules).test(code)) return { type: 'Ready', code, topLevelAwait: false };
  let program: Program;
  try {
    program = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowAwaitOutsideFunction: true,
      locations: true,
    });
  } catch (error) {
    return { type: 'Refused', error: `SyntaxError: ${(error as Error).message}` };
  }
  const violation = findViolation(program, rules);
  if (violation !== undefined) {
    const where = `line ${violation.line}, column ${violation.column + 1}`;
    return {
      type: 'Refused',
      error: `SandboxPolicyViolation: ${violation.construct} is denied by the sandbox policy (rule ${violation.rule}) at ${where}`,
    };
  }
  return { type: 'Ready', code: rewriteTopLevel(program, code), topLevelAwait: awaitsAtTopLevel(program) };
}

/** The words the rewrite, the await check and the policy act on; a backslash could escape one. */
const TRIGGER_CACHE = new WeakMap<PolicyRules, RegExp>();
function triggers(rules: PolicyRules): RegExp {
  let pattern = TRIGGER_CACHE.get(rules);
  if (pattern === undefined) {
    const words = ['let', 'const', 'class', 'await', ...rules.deniedGlobals];
    if (rules.denyDynamicImport) words.push('import');
    if (rules.denyFunctionConstructor) words.push('Function', 'constructor');
    if (rules.denyGlobalMutation) words.push('globalThis', 'self', 'window', 'global');
    const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`\\\\|(?<![\\w$])(?:${escaped.join('|')})(?![\\w$])`);
    TRIGGER_CACHE.set(rules, pattern);
  }
  return pattern;
}

/** Whether `await` (or `for await`) appears outside every function. */
function awaitsAtTopLevel(program: Program): boolean {
  let found = false;
  const skip = (): void => undefined;
  recursive(program, undefined, {
    Function: skip,
    AwaitExpression() {
      found = true;
    },
    ForOfStatement(node, state, walk) {
      if (node.await) found = true;
      base.ForOfStatement?.(node, state, walk);
    },
  });
  return found;
}
