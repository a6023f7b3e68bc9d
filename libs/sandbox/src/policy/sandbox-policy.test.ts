import { InvalidArgumentError } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { SandboxPolicy } from './sandbox-policy.js';

describe('SandboxPolicy', () => {
  it('permissive denies nothing; standard denies the absent APIs and import(); strict adds eval, Function and global writes', () => {
    expect(SandboxPolicy.permissive()).toEqual({
      deniedGlobals: [],
      denyDynamicImport: false,
      denyFunctionConstructor: false,
      denyGlobalMutation: false,
    });
    const standard = SandboxPolicy.standard();
    expect(standard.deniedGlobals).toEqual(
      expect.arrayContaining(['require', 'process', 'setTimeout', 'fetch']),
    );
    expect(standard).toMatchObject({
      denyDynamicImport: true,
      denyFunctionConstructor: false,
      denyGlobalMutation: false,
    });
    const strict = SandboxPolicy.strict();
    expect(strict.deniedGlobals).toContain('eval');
    expect(strict).toMatchObject({
      denyDynamicImport: true,
      denyFunctionConstructor: true,
      denyGlobalMutation: true,
    });
    expect(Object.isFrozen(strict) && Object.isFrozen(strict.deniedGlobals)).toBe(true);
  });

  it('combines rules, dropping duplicate names, and refuses malformed ones', () => {
    expect(SandboxPolicy.of({ deniedGlobals: ['a', 'a', 'b'] }).deniedGlobals).toEqual(['a', 'b']);
    expect(() => SandboxPolicy.of({ deniedGlobals: [''] })).toThrow(InvalidArgumentError);
    expect(() => SandboxPolicy.of({ deniedGlobals: 'require' as never })).toThrow(InvalidArgumentError);
    expect(() => SandboxPolicy.of({ denyGlobalMutation: 'yes' as never })).toThrow(
      /denyGlobalMutation must be a boolean/,
    );
  });
});
