/**
 * The JavaScriptExecutionProvider's settings, each with its default, checked once at construction.
 */
import { InvalidArgumentError } from '@helios/core';
import { MAX_ENGINE_STACK_BYTES } from '../child/protocol.js';
import { type HostFunction, HostFunctionRegistry } from '../host/host-function.js';
import { SandboxPolicy } from '../policy/sandbox-policy.js';
import { type OsSandboxMode } from '../process/bubblewrap.js';

export interface JavaScriptProviderOptions {
  /** Functions snippets may call; a registry is frozen when the first sandbox boots. Default none. */
  readonly hostFunctions?: readonly HostFunction[] | HostFunctionRegistry;
  /** The static check's rules; default `SandboxPolicy.standard()`. */
  readonly policy?: SandboxPolicy;
  /** The engine's heap, ArrayBuffers included; default 64 MiB. */
  readonly memoryLimitBytes?: number;
  /** The engine's native stack; default and maximum 512 KiB. */
  readonly maxStackBytes?: number;
  /** Per execute when the request gives none; default 30 s. */
  readonly defaultTimeoutMs?: number;
  /** The longest a request may ask for; default 2 min. */
  readonly maxTimeoutMs?: number;
  /** How long past its timeout a snippet may run before the sandbox is killed; default 5 s. */
  readonly stopGraceMs?: number;
  /** Spawn to ready; default 10 s. */
  readonly startupTimeoutMs?: number;
  /** One host-function call (also cut at the snippet's deadline); default 60 s. */
  readonly callTimeoutMs?: number;
  /** Sandboxes (sessions) at once; one more session is refused at open. Default 4. */
  readonly maxConcurrentSandboxes?: number;
  /** The OS layer (bubblewrap): `auto` (default) uses it when it works here, `required`, `off`. */
  readonly osSandbox?: OsSandboxMode;
  /** Where bwrap is; default found on PATH. */
  readonly bubblewrapPath?: string;
  /**
   * Busy time at boot that gets the engine's interpreter loop optimized before the first snippet;
   * default 0 (none): the compile costs more CPU at every start than it saves a long first snippet.
   */
  readonly warmUpMs?: number;
  /** The child's V8 heap (not the engine's); default 128 MiB. */
  readonly maxOldSpaceMb?: number;
  /** After a sandbox ended (killed, crashed), the next execute starts a fresh one; default true. */
  readonly restartAfterEnd?: boolean;
  /**
   * Keep one sandbox booted ahead (one more child, ~60 MB, beyond maxConcurrentSandboxes), so a session
   * opens in about a warm execute's time instead of a cold start. Default false.
   */
  readonly spareSandbox?: boolean;
}

export interface JavaScriptProviderConfig {
  readonly registry: HostFunctionRegistry;
  readonly policy: SandboxPolicy;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly stopGraceMs: number;
  readonly startupTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly maxConcurrentSandboxes: number;
  readonly osSandbox: OsSandboxMode;
  readonly bubblewrapPath: string | undefined;
  readonly warmUpMs: number;
  readonly maxOldSpaceMb: number;
  readonly restartAfterEnd: boolean;
  readonly spareSandbox: boolean;
}

const MIB = 1024 * 1024;

export function resolveJavaScriptConfig(options: JavaScriptProviderOptions = {}): JavaScriptProviderConfig {
  const hostFunctions = options.hostFunctions ?? [];
  const config: JavaScriptProviderConfig = {
    registry:
      hostFunctions instanceof HostFunctionRegistry ? hostFunctions : new HostFunctionRegistry(hostFunctions),
    policy: SandboxPolicy.of(options.policy ?? SandboxPolicy.standard()),
    memoryLimitBytes: atLeast(options.memoryLimitBytes ?? 64 * MIB, MIB, 'memoryLimitBytes'),
    maxStackBytes: atLeast(options.maxStackBytes ?? MAX_ENGINE_STACK_BYTES, 16 * 1024, 'maxStackBytes'),
    defaultTimeoutMs: atLeast(options.defaultTimeoutMs ?? 30_000, 1, 'defaultTimeoutMs'),
    maxTimeoutMs: atLeast(options.maxTimeoutMs ?? 120_000, 1, 'maxTimeoutMs'),
    stopGraceMs: atLeast(options.stopGraceMs ?? 5_000, 1, 'stopGraceMs'),
    startupTimeoutMs: atLeast(options.startupTimeoutMs ?? 10_000, 1, 'startupTimeoutMs'),
    callTimeoutMs: atLeast(options.callTimeoutMs ?? 60_000, 1, 'callTimeoutMs'),
    maxConcurrentSandboxes: atLeast(options.maxConcurrentSandboxes ?? 4, 1, 'maxConcurrentSandboxes'),
    osSandbox: options.osSandbox ?? 'auto',
    bubblewrapPath: options.bubblewrapPath,
    warmUpMs: atLeast(options.warmUpMs ?? 0, 0, 'warmUpMs'),
    maxOldSpaceMb: atLeast(options.maxOldSpaceMb ?? 128, 16, 'maxOldSpaceMb'),
    restartAfterEnd: options.restartAfterEnd ?? true,
    spareSandbox: options.spareSandbox ?? false,
  };
  if (config.maxStackBytes > MAX_ENGINE_STACK_BYTES) {
    throw new InvalidArgumentError(
      `maxStackBytes must be at most ${MAX_ENGINE_STACK_BYTES}, got ${config.maxStackBytes}`,
    );
  }
  if (config.defaultTimeoutMs > config.maxTimeoutMs) {
    throw new InvalidArgumentError(
      `defaultTimeoutMs (${config.defaultTimeoutMs}) exceeds maxTimeoutMs (${config.maxTimeoutMs})`,
    );
  }
  if (!['required', 'auto', 'off'].includes(config.osSandbox)) {
    throw new InvalidArgumentError(
      `osSandbox must be 'required', 'auto' or 'off', got ${JSON.stringify(config.osSandbox)}`,
    );
  }
  return Object.freeze(config);
}

function atLeast(value: number, minimum: number, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidArgumentError(`${field} must be an integer ≥ ${minimum}, got ${String(value)}`);
  }
  return value;
}
