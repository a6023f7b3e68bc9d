/**
 * The execution providers of `sandbox:`, made on first use (a server whose agents execute nothing never
 * starts a sandbox) and closed at shutdown, which kills every sandbox and its descendants. One provider
 * per kind, shared by every agent naming it, so its caps hold server-wide.
 */
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  type CodeExecutionProvider,
  JavaScriptExecutionProvider,
  LocalProcessExecutionProvider,
  SandboxPolicy,
} from '@helios/sandbox';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG } from '../config/config.tokens.js';
import { type ExecutionKind, type SandboxConfig } from '../config/sandbox.schema.js';

const MIB = 1024 * 1024;

type Closable = CodeExecutionProvider & { close(): Promise<void>; describe(): string };

@Injectable()
export class ExecutionProviders implements OnApplicationShutdown {
  readonly #logger = new Logger('Sandbox');
  readonly #made = new Map<ExecutionKind, Closable>();

  constructor(@Inject(HELIOS_CONFIG) private readonly config: HeliosConfig) {}

  /** The provider an agent's `execution:` names (made now if it is the first). */
  get(kind: ExecutionKind): CodeExecutionProvider {
    let provider = this.#made.get(kind);
    if (provider === undefined) {
      provider = make(kind, this.config.sandbox);
      this.#logger.log(`execution provider ${kind}: ${provider.describe()}`);
      this.#made.set(kind, provider);
    }
    return provider;
  }

  async onApplicationShutdown(): Promise<void> {
    const providers = [...this.#made.values()];
    this.#made.clear();
    await Promise.all(providers.map((provider) => provider.close()));
  }
}

function make(kind: ExecutionKind, config: SandboxConfig): Closable {
  switch (kind) {
    case 'javascript': {
      const js = config.javascript;
      return new JavaScriptExecutionProvider({
        osSandbox: js.osSandbox,
        policy: policyOf(js.policy),
        memoryLimitBytes: js.memoryLimitMiB * MIB,
        defaultTimeoutMs: js.defaultTimeoutMs,
        maxTimeoutMs: js.maxTimeoutMs,
        maxConcurrentSandboxes: js.maxConcurrentSandboxes,
        spareSandbox: js.spareSandbox,
      });
    }
    case 'bash': {
      const bash = config.bash;
      return new LocalProcessExecutionProvider({
        allowedEnvironment: bash.allowedEnvironment,
        defaultTimeoutMs: bash.defaultTimeoutMs,
        maxTimeoutMs: bash.maxTimeoutMs,
        maxConcurrent: bash.maxConcurrent,
      });
    }
    default: {
      const unknown: never = kind;
      throw new Error(`unknown execution kind ${String(unknown)}`);
    }
  }
}

function policyOf(name: SandboxConfig['javascript']['policy']): SandboxPolicy {
  switch (name) {
    case 'permissive':
      return SandboxPolicy.permissive();
    case 'standard':
      return SandboxPolicy.standard();
    case 'strict':
      return SandboxPolicy.strict();
  }
}
