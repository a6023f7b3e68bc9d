/**
 * CommandGrant: give the model one CLI binary without giving it the secrets the binary needs. A grant
 * is built with the SecretRegistry of the sessions that run it; its secret variables are registered
 * there, and the tool refuses to start a process in a session with another registry.
 *
 * Hardened by default: the binary's real path is pinned at build; argv only, never a shell; the child's
 * environment is PATH plus the grant's variables (nothing of this process's); an argv holding a
 * registered secret is refused; each call runs in a fresh 0700 temp directory, removed afterwards;
 * output is capped per stream and redacted; stderr is hidden unless asked for; on timeout, cancellation
 * or exit every process the call started is killed, those that called setsid included (see
 * descendant-reaper.ts for how, and for its limits).
 *
 * ```ts
 * const gh = CommandGrant.builder('gh')
 *   .withSecretRegistry(registry) // the sessions' registry
 *   .withEnv('GH_TOKEN', token)
 *   .withArgValidator((args) => (args[0] === 'auth' ? "'gh auth' is not allowed" : undefined))
 *   .build(); // a Tool taking { args: string[] }
 * ```
 */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requireNonBlank, requirePositiveInteger } from '../common/validate.js';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { type Tool } from '../tool/tool.js';
import { type ArgValidator } from './argv-check.js';
import { resolveBinary } from './binary-resolution.js';
import {
  DEFAULT_GRANT_PATH,
  registerGrantSecrets,
  requireChildPath,
  requireEnvName,
  requireEnvValue,
} from './grant-environment.js';
import { grantTool } from './grant-tool.js';

export const DEFAULT_GRANT_TIMEOUT_MS = 30_000;
export const DEFAULT_GRANT_MAX_OUTPUT_BYTES = 50_000;
export const MIN_GRANT_MAX_OUTPUT_BYTES = 1024;
export const DEFAULT_GRANT_MAX_CONCURRENT = 4;

interface Variable {
  readonly value: string;
  readonly secret: boolean;
}

export class CommandGrantBuilder {
  readonly #binary: string;
  #registry: SecretRegistry | undefined;
  readonly #variables = new Map<string, Variable>();
  #path = DEFAULT_GRANT_PATH;
  #timeoutMs = DEFAULT_GRANT_TIMEOUT_MS;
  #maxOutputBytes = DEFAULT_GRANT_MAX_OUTPUT_BYTES;
  #stderrToModel = false;
  #argValidator: ArgValidator | undefined;
  #name: string | undefined;
  #description: string | undefined;
  #maxConcurrent = DEFAULT_GRANT_MAX_CONCURRENT;

  /** `binary`: a bare name, looked up on this process's PATH at `build()`, or an absolute path. */
  constructor(binary: string) {
    this.#binary = binary;
  }

  /** Required: the registry of the sessions that will run the tool (the same instance). */
  withSecretRegistry(registry: SecretRegistry): this {
    if (!(registry instanceof SecretRegistry)) {
      throw new InvalidArgumentError('withSecretRegistry needs a SecretRegistry');
    }
    this.#registry = registry;
    return this;
  }

  /**
   * A secret variable for the child, registered in the registry at `build()` (which refuses a value
   * shorter than MIN_SECRET_LENGTH). A later call for the same name replaces this one.
   */
  withEnv(name: string, value: string): this {
    return this.#setVariable(name, value, true);
  }

  /** A variable that is not a secret: given to the child as is, never registered, so the model may see it. */
  withPlainEnv(name: string, value: string): this {
    return this.#setVariable(name, value, false);
  }

  /** The child's PATH (default `/usr/local/bin:/usr/bin:/bin`); absolute directories only. */
  withPath(path: string): this {
    this.#path = requireChildPath(path);
    return this;
  }

  /** Per call (default 30 s); the call's processes are killed when it passes. */
  withTimeout(ms: number): this {
    this.#timeoutMs = requirePositiveInteger(ms, 'timeout (ms)');
    return this;
  }

  /** Bytes kept per stream (default 50,000, at least 1024); the rest is drained and counted. */
  withMaxOutputBytes(bytes: number): this {
    requirePositiveInteger(bytes, 'maxOutputBytes');
    if (bytes < MIN_GRANT_MAX_OUTPUT_BYTES) {
      throw new InvalidArgumentError(
        `maxOutputBytes must be at least ${MIN_GRANT_MAX_OUTPUT_BYTES}, got ${bytes}`,
      );
    }
    this.#maxOutputBytes = bytes;
    return this;
  }

  /** Whether the model sees stderr (default false: only its size is said). */
  withStderrToModel(show: boolean): this {
    if (typeof show !== 'boolean') throw new InvalidArgumentError('withStderrToModel needs a boolean');
    this.#stderrToModel = show;
    return this;
  }

  /** Runs before each call; a returned reason refuses the call with it. */
  withArgValidator(validator: ArgValidator): this {
    if (typeof validator !== 'function') throw new InvalidArgumentError('withArgValidator needs a function');
    this.#argValidator = validator;
    return this;
  }

  /** The tool's name (default: the binary's basename, characters other than letters, digits, _ and - as _). */
  withName(name: string): this {
    this.#name = requireNonBlank(name, 'tool name');
    return this;
  }

  withDescription(description: string): this {
    this.#description = requireNonBlank(description, 'tool description');
    return this;
  }

  /** Calls running at once (default 4); one more is refused at once, not queued. */
  withMaxConcurrent(calls: number): this {
    this.#maxConcurrent = requirePositiveInteger(calls, 'maxConcurrent');
    return this;
  }

  /**
   * Resolves and pins the binary, registers the secret variables (all or none, see
   * grant-environment.ts) and returns the tool. Throws InvalidArgumentError without a registry, for a
   * binary that is not an executable regular file, or for a secret value the registry refuses.
   */
  build(): Tool {
    const registry = this.#registry;
    if (registry === undefined) {
      throw new InvalidArgumentError(
        `CommandGrant '${String(this.#binary)}' needs withSecretRegistry(registry), the registry of the sessions that run it`,
      );
    }
    const binaryPath = resolveBinary(this.#binary);
    const secrets = new Map<string, string>();
    for (const [name, { value, secret }] of this.#variables) if (secret) secrets.set(name, value);
    registerGrantSecrets(registry, secrets);
    const baseName = this.#binary.slice(this.#binary.lastIndexOf('/') + 1);
    return grantTool({
      name: this.#name ?? baseName.replace(/[^A-Za-z0-9_-]/g, '_'),
      description: this.#description ?? defaultDescription(baseName),
      binaryPath,
      registry,
      variables: new Map([...this.#variables].map(([name, { value }]) => [name, value])),
      path: this.#path,
      timeoutMs: this.#timeoutMs,
      maxOutputBytes: this.#maxOutputBytes,
      stderrToModel: this.#stderrToModel,
      argValidator: this.#argValidator,
      maxConcurrent: this.#maxConcurrent,
    });
  }

  #setVariable(name: string, value: string, secret: boolean): this {
    requireEnvName(name);
    this.#variables.set(name, { value: requireEnvValue(name, value), secret });
    return this;
  }
}

function defaultDescription(baseName: string): string {
  return (
    `Runs the command-line program '${baseName}' directly, without a shell, with the argv you give in ` +
    '`args`; answers with its exit code and output.'
  );
}

export const CommandGrant = {
  /** A builder for a grant of `binary`: a bare name (found on PATH at build) or an absolute path. */
  builder(binary: string): CommandGrantBuilder {
    return new CommandGrantBuilder(binary);
  },
} as const;
