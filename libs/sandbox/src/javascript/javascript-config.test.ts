import { InvalidArgumentError } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { HostFunctionRegistry } from '../host/host-function.js';
import { SandboxPolicy } from '../policy/sandbox-policy.js';
import { resolveJavaScriptConfig } from './javascript-config.js';

describe('resolveJavaScriptConfig', () => {
  it('has the reference defaults', () => {
    const config = resolveJavaScriptConfig();
    expect(config).toMatchObject({
      memoryLimitBytes: 64 * 1024 * 1024,
      maxStackBytes: 512 * 1024,
      defaultTimeoutMs: 30_000,
      maxTimeoutMs: 120_000,
      stopGraceMs: 5_000,
      startupTimeoutMs: 10_000,
      callTimeoutMs: 60_000,
      maxConcurrentSandboxes: 4,
      osSandbox: 'auto',
      warmUpMs: 0,
      maxOldSpaceMb: 128,
      restartAfterEnd: true,
      spareSandbox: false,
    });
    expect(config.policy).toEqual(SandboxPolicy.standard());
    expect(config.registry.size).toBe(0);
  });

  it('keeps a registry it is given, so a later freeze is the deployer’s', () => {
    const registry = new HostFunctionRegistry();
    expect(resolveJavaScriptConfig({ hostFunctions: registry }).registry).toBe(registry);
  });

  it('refuses values out of range', () => {
    const bad = [
      { memoryLimitBytes: 1024 },
      { maxStackBytes: 600_000 },
      { maxStackBytes: 1.5 },
      { defaultTimeoutMs: 0 },
      { defaultTimeoutMs: 10_000, maxTimeoutMs: 5_000 },
      { stopGraceMs: -1 },
      { maxConcurrentSandboxes: 0 },
      { osSandbox: 'sometimes' as never },
      { warmUpMs: -5 },
      { maxOldSpaceMb: 8 },
    ];
    for (const options of bad) expect(() => resolveJavaScriptConfig(options)).toThrow(InvalidArgumentError);
  });
});
