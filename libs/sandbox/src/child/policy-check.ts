/**
 * The static check a snippet passes before it runs: defense in depth with friendly errors, not the
 * boundary (the engine has no dangerous API to reach). It finds the first construct the deployer's
 * rules deny and names it, with where it is. Names are matched as written: a snippet's own variable
 * called `process` is refused like the global, and a name computed at run time is not seen.
 */
import { type AnyNode, type Node, type Program } from 'acorn';
import { ancestor } from 'acorn-walk';
import { type PolicyRules } from './protocol.js';

export interface PolicyViolation {
  /** The construct, as the error names it: `require`, `import()`, `Function constructor`, … */
  readonly construct: string;
  /** The rule that denies it, e.g. `deniedGlobals:require`. */
  readonly rule: string;
  readonly line: number;
  readonly column: number;
}

/** Names through which a snippet reaches the global object. */
const GLOBAL_OBJECT_NAMES = new Set(['globalThis', 'self', 'window', 'global']);
/** Calls that change the object given as their first argument. */
const MUTATING_CALLS: Readonly<Record<string, readonly string[]>> = {
  Object: [
    'assign',
    'defineProperty',
    'defineProperties',
    'setPrototypeOf',
    'freeze',
    'seal',
    'preventExtensions',
  ],
  Reflect: ['set', 'defineProperty', 'deleteProperty', 'setPrototypeOf', 'preventExtensions'],
};

class Found extends Error {
  constructor(readonly violation: PolicyViolation) {
    super(violation.construct);
  }
}

/** The first construct `rules` deny in `program`, or undefined. Needs a program parsed with locations. */
export function findViolation(program: Program, rules: PolicyRules): PolicyViolation | undefined {
  const denied = new Set(rules.deniedGlobals);
  const deny = (node: Node, construct: string, rule: string): never => {
    const start = node.loc?.start;
    throw new Found({ construct, rule, line: start?.line ?? 0, column: start?.column ?? 0 });
  };
  try {
    ancestor(program, {
      Identifier(node) {
        if (rules.denyFunctionConstructor && node.name === 'Function')
          deny(node, 'Function constructor', 'denyFunctionConstructor');
        if (denied.has(node.name)) deny(node, node.name, `deniedGlobals:${node.name}`);
      },
      ImportExpression(node) {
        if (rules.denyDynamicImport) deny(node, 'import()', 'denyDynamicImport');
      },
      CallExpression(node) {
        if (rules.denyFunctionConstructor && isConstructorAccess(node.callee)) {
          deny(node, 'Function constructor', 'denyFunctionConstructor');
        }
        if (rules.denyGlobalMutation && isMutatingCallOnGlobal(node.callee, node.arguments[0])) {
          deny(node, 'globalThis mutation', 'denyGlobalMutation');
        }
      },
      NewExpression(node) {
        if (rules.denyFunctionConstructor && isConstructorAccess(node.callee)) {
          deny(node, 'Function constructor', 'denyFunctionConstructor');
        }
      },
      AssignmentExpression(node) {
        if (rules.denyGlobalMutation && isGlobalMember(node.left))
          deny(node, 'globalThis mutation', 'denyGlobalMutation');
      },
      UpdateExpression(node) {
        if (rules.denyGlobalMutation && isGlobalMember(node.argument))
          deny(node, 'globalThis mutation', 'denyGlobalMutation');
      },
      UnaryExpression(node) {
        if (rules.denyGlobalMutation && node.operator === 'delete' && isGlobalMember(node.argument)) {
          deny(node, 'globalThis mutation', 'denyGlobalMutation');
        }
      },
    });
  } catch (error) {
    if (error instanceof Found) return error.violation;
    throw error;
  }
  return undefined;
}

/** `x.constructor` or `x['constructor']`. */
function isConstructorAccess(node: AnyNode): boolean {
  return node.type === 'MemberExpression' && propertyName(node) === 'constructor';
}

/** `globalThis.x`, `self[x]`, … (possibly nested: `globalThis.a.b` changes a value, not the global). */
function isGlobalMember(node: AnyNode): boolean {
  return node.type === 'MemberExpression' && isGlobalObject(node.object);
}

function isGlobalObject(node: AnyNode | undefined): boolean {
  return node?.type === 'Identifier' && GLOBAL_OBJECT_NAMES.has(node.name);
}

function isMutatingCallOnGlobal(callee: AnyNode, first: AnyNode | undefined): boolean {
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  const methods = MUTATING_CALLS[callee.object.name];
  const method = propertyName(callee);
  return methods !== undefined && method !== undefined && methods.includes(method) && isGlobalObject(first);
}

function propertyName(node: Extract<AnyNode, { type: 'MemberExpression' }>): string | undefined {
  const { property } = node;
  if (!node.computed && property.type === 'Identifier') return property.name;
  if (node.computed && property.type === 'Literal' && typeof property.value === 'string')
    return property.value;
  return undefined;
}
