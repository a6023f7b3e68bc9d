/**
 * Starts a Sandbox over the rogue child (test/fixtures/rogue-child.mjs): the host side is the real one,
 * the child does whatever each execute's code names.
 */
import { SecretRegistry } from '@helios/core';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { HostFunction, HostFunctionRegistry, HostParameter } from '../src/host/host-function.js';
import { type OsLayer } from '../src/process/bubblewrap.js';
import { Sandbox, type SnippetOutcome } from '../src/javascript/sandbox.js';
import { SandboxPolicy } from '../src/policy/sandbox-policy.js';

export const ROGUE_CHILD = fileURLToPath(new URL('./fixtures/rogue-child.mjs', import.meta.url));

export const rogueFunctions = new HostFunctionRegistry([
  HostFunction(
    'add',
    'Adds',
    [HostParameter.required('a', 'number', ''), HostParameter.required('b', 'number', '')],
    (args) => (args['a'] as number) + (args['b'] as number),
  ),
  HostFunction('slow', 'Never answers', [], () => new Promise(() => undefined)),
]).freeze();

export interface RogueOptions {
  readonly osLayer?: OsLayer;
  readonly stopGraceMs?: number;
  readonly startupTimeoutMs?: number;
  readonly entry?: string;
  /** Leave it without a session (as a spare is). */
  readonly unassigned?: boolean;
}

export function startRogue(options: RogueOptions = {}): Promise<Sandbox> {
  return Sandbox.start({
    launch: {
      program: { entry: options.entry ?? ROGUE_CHILD, args: [], readPaths: [dirname(ROGUE_CHILD)] },
      osLayer: options.osLayer ?? { type: 'none', reason: 'test' },
      maxOldSpaceMb: 64,
    },
    boot: {
      memoryLimitBytes: 1 << 24,
      maxStackBytes: 1 << 18,
      warmUpMs: 0,
      policy: SandboxPolicy.permissive(),
      hostFunctions: [],
    },
    startupTimeoutMs: options.startupTimeoutMs ?? 10_000,
    stopGraceMs: options.stopGraceMs ?? 300,
    callTimeoutMs: 5_000,
    registry: rogueFunctions,
  }).then((sandbox) =>
    options.unassigned === true
      ? sandbox
      : sandbox.assignTo({ sessionId: 'rogue', redactor: () => new SecretRegistry().redactor() }),
  );
}

export function rogue(
  sandbox: Sandbox,
  code: string,
  timeoutMs = 2_000,
  signal: AbortSignal = new AbortController().signal,
): Promise<SnippetOutcome> {
  return sandbox.execute({ code, language: 'javascript', timeoutMs }, signal);
}
