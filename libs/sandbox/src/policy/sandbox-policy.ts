/**
 * The deployer's SandboxPolicy: which constructs the static check refuses before a snippet runs. It is
 * defense in depth and a source of clear errors, not the boundary: the engine has no `require`,
 * `process`, file, network or timer API whatever the policy says.
 *
 * - `permissive()` refuses nothing.
 * - `standard()` (the default) refuses, with an error naming them, the Node and browser names a model
 *   might reach for that the sandbox does not have, and `import()`.
 * - `strict()` adds `eval`, the Function constructor (also through `.constructor(...)`) and writes to
 *   the global object.
 * - `of(rules)` is any combination.
 */
import { InvalidArgumentError } from '@helios/core';
import { type PolicyRules } from '../child/protocol.js';

export type SandboxPolicy = PolicyRules;

const ABSENT_APIS: readonly string[] = [
  'require',
  'process',
  'module',
  'exports',
  'Buffer',
  '__dirname',
  '__filename',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'Deno',
  'Bun',
];

const NOTHING: PolicyRules = {
  deniedGlobals: [],
  denyDynamicImport: false,
  denyFunctionConstructor: false,
  denyGlobalMutation: false,
};

export const SandboxPolicy = {
  permissive(): SandboxPolicy {
    return SandboxPolicy.of({});
  },
  standard(): SandboxPolicy {
    return SandboxPolicy.of({ deniedGlobals: ABSENT_APIS, denyDynamicImport: true });
  },
  strict(): SandboxPolicy {
    return SandboxPolicy.of({
      deniedGlobals: [...ABSENT_APIS, 'eval'],
      denyDynamicImport: true,
      denyFunctionConstructor: true,
      denyGlobalMutation: true,
    });
  },
  of(rules: Partial<PolicyRules>): SandboxPolicy {
    const merged = { ...NOTHING, ...rules };
    if (
      !Array.isArray(merged.deniedGlobals) ||
      !merged.deniedGlobals.every((n) => typeof n === 'string' && n !== '')
    ) {
      throw new InvalidArgumentError('deniedGlobals must be a list of names');
    }
    for (const flag of ['denyDynamicImport', 'denyFunctionConstructor', 'denyGlobalMutation'] as const) {
      if (typeof merged[flag] !== 'boolean') throw new InvalidArgumentError(`${flag} must be a boolean`);
    }
    return Object.freeze({ ...merged, deniedGlobals: Object.freeze([...new Set(merged.deniedGlobals)]) });
  },
} as const;
