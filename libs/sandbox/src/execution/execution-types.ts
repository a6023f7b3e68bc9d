/**
 * The execute surface of an execution provider — what the Execute tool calls. `@helios/session`'s
 * ExecutionProvider declares only the lifecycle (start at open, end at close); this adds the runtimes a
 * provider supports and `execute` (reference §2.11), with the result the tool turns into text.
 */
import { type SessionContext } from '@helios/core';
import { type ExecutionProvider } from '@helios/session';

export const ExecutionRuntime = {
  JAVASCRIPT: 'JAVASCRIPT',
  TYPESCRIPT: 'TYPESCRIPT',
  BASH: 'BASH',
} as const;
export type ExecutionRuntime = (typeof ExecutionRuntime)[keyof typeof ExecutionRuntime];

/**
 * One script to run (reference §2.11). What `args`, `environment`, `stdin` and `workingDirectory` mean
 * depends on the runtime: BASH gets them as a process does; JAVASCRIPT and TYPESCRIPT see the first
 * three as read-only globals and refuse a working directory (see each provider).
 */
export interface ExecutionRequest {
  readonly runtime: ExecutionRuntime;
  readonly script: string;
  /** Positional arguments. */
  readonly args?: readonly string[];
  /** Where the script runs, when the provider allows it. */
  readonly workingDirectory?: string;
  /** Default: the provider's default timeout; capped at its `maxTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Variables for this run only, over the provider's own (never the host's environment). */
  readonly environment?: Readonly<Record<string, string>>;
  /** Text fed to the script's standard input, which is then closed. */
  readonly stdin?: string;
}

export interface ExecutionResult {
  /** 0 success; 1 the script failed or timed out; 3 the sandbox ended during it; −1 refused (nothing ran). */
  readonly exitCode: number;
  /** Redacted, cut at the provider's cap with a `[output truncated: …]` line. */
  readonly stdout: string;
  readonly stderr: string;
  /** The snippet's completion value as text, redacted, when it had one (JavaScript/TypeScript). */
  readonly value?: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** Markers the redaction wrote, per secret name, over stdout, stderr and value. */
  readonly secretRedactionCounts: ReadonlyMap<string, number>;
}

export const ExecutionResult = {
  /** Nothing ran: exit −1 with the reason as stderr. */
  refusal(reason: string, durationMs = 0): ExecutionResult {
    return Object.freeze({
      exitCode: -1,
      stdout: '',
      stderr: reason,
      durationMs,
      timedOut: false,
      secretRedactionCounts: new Map<string, number>(),
    });
  },
} as const;

export interface ExecutionCapabilities {
  readonly supportedRuntimes: readonly ExecutionRuntime[];
  /** Informational: whether scripts can reach a network. */
  readonly networkAllowed: boolean;
  /** Informational: whether scripts can write files that outlive them. */
  readonly filesystemWriteAllowed: boolean;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  /** Longest a call can take past its timeout before it answers (the stop grace plus reaping). */
  readonly answerGraceMs: number;
}

/** An ExecutionProvider that also runs scripts: what the Execute tool needs. */
export interface CodeExecutionProvider extends ExecutionProvider {
  readonly capabilities: ExecutionCapabilities;
  /** What the Execute tool's description says about this provider: runtimes, isolation, limits. */
  describe(): string;
  /** Runs one script in the session's environment; never rejects for the script's own failure. */
  execute(session: SessionContext, request: ExecutionRequest, signal: AbortSignal): Promise<ExecutionResult>;
  /** Ends every session's environment and refuses new sessions. */
  close(): Promise<void>;
}
