/**
 * What the host and the sandbox child say to each other over the child's fd 3 (an anonymous socketpair):
 * one JSON-RPC 2.0 object per line, UTF-8, both ways. Shared by both sides, so it imports nothing.
 *
 * Host → child: `boot` (once, first), `execute`, and the answer to each host-function `call`.
 * Child → host: the answers to `boot` and `execute`, `output` notifications carrying a snippet's printed
 * text in chunks (no frame grows with the output), and `call` requests for registered host functions.
 * The host treats every child frame as untrusted (see the host's frame validation).
 */

/** A frame (one line) longer than this, in UTF-16 code units, ends the sandbox. */
export const MAX_FRAME_CHARS = 8_000_000;
/** What one execute keeps of each stream (stdout, stderr); the rest is counted and discarded. */
export const MAX_STREAM_CHARS = 1_000_000;
/** What is shown of a completion value; the rest is cut with a note. */
export const MAX_VALUE_CHARS = 100_000;
/** The largest `output` chunk the child sends (well under the frame cap even fully escaped). */
export const OUTPUT_CHUNK_CHARS = 65_536;
/** quickjs-wasi's ceiling for the engine's native stack (MAX_STACK_SIZE of the shipped binary). */
export const MAX_ENGINE_STACK_BYTES = 524_288;

export const JSONRPC = '2.0';
export const BOOT_ID = 'boot';

export type SnippetLanguage = 'javascript' | 'typescript';
export type OutputStream = 'stdout' | 'stderr';
export type HostParameterType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

/** What the static check denies; every field off denies nothing. */
export interface PolicyRules {
  /** Identifiers a snippet may not reference (read, call or assign), e.g. `require`, `process`, `eval`. */
  readonly deniedGlobals: readonly string[];
  /** `import(...)` (a static `import` is a syntax error in a snippet, which is a script). */
  readonly denyDynamicImport: boolean;
  /** `Function(...)`, `new Function(...)` and `x.constructor(...)` (the constructor reached from a value). */
  readonly denyFunctionConstructor: boolean;
  /** Writes to the global object: `globalThis.x = …`, `delete globalThis.x`, `Object.defineProperty(globalThis, …)`. */
  readonly denyGlobalMutation: boolean;
}

/** One registered host function as the child sees it: enough to build its wrapper, nothing more. */
export interface HostFunctionShape {
  readonly name: string;
  readonly parameters: readonly { readonly name: string; readonly type: HostParameterType }[];
}

export interface BootParams {
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  /** How long the boot spends warming the engine up (0: none). */
  readonly warmUpMs: number;
  readonly policy: PolicyRules;
  readonly hostFunctions: readonly HostFunctionShape[];
  /** The prelude as QuickJS bytecode (base64), compiled by the host; absent: the child parses the source. */
  readonly preludeBytecode?: string;
}

export interface BootResult {
  readonly ready: true;
  readonly engine: string;
}

/** One execute's request inputs, exposed to its snippet as the read-only globals of these names. */
export interface SnippetInputs {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string;
}

export interface ExecuteParams {
  readonly code: string;
  readonly language: SnippetLanguage;
  readonly timeoutMs: number;
  /** Present when the request carried args, an environment or stdin. */
  readonly inputs?: SnippetInputs;
}

/** How an execute ended, as the child reports it; printed text came before it in `output` frames. */
export interface ExecuteOutcome {
  /** 0: completed; 1: the snippet threw, was refused by the policy, ran out of memory or timed out. */
  readonly exitCode: 0 | 1;
  readonly timedOut: boolean;
  /** The completion value rendered as text, when it is not undefined. */
  readonly value?: string | undefined;
  /** Characters the child counted and did not send, per stream. */
  readonly discarded: { readonly stdout: number; readonly stderr: number };
  /** A stopped snippet's promise jobs kept queueing more: the engine cannot be cleaned, replace it. */
  readonly jobsLeft?: true | undefined;
}

export interface OutputParams {
  readonly exec: string;
  readonly stream: OutputStream;
  readonly text: string;
}

export interface CallParams {
  readonly exec: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The JSON-RPC error codes the two sides use. */
export const RpcErrorCode = {
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
} as const;

/** A completion value as shown: cut at MAX_VALUE_CHARS with a note saying how much was left out. */
export function cutValue(value: string): string {
  if (value.length <= MAX_VALUE_CHARS) return value;
  return `${value.slice(0, MAX_VALUE_CHARS)}… [value cut: ${value.length - MAX_VALUE_CHARS} more chars]`;
}
