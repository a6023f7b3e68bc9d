/**
 * Everything a session is built from. Only `model` is required; every other field has the reference's
 * default. Options are plain values: build them explicitly, share them between sessions if you like.
 */
import {
  CostCalculator,
  InvalidArgumentError,
  type Model,
  type OutputSchema,
  SecretRegistry,
  TokenCounter,
  type TraceDetail,
  type TraceListener,
} from '@helios/core';
import { type ContextCompactor } from './compaction.js';
import { SummarizingCompactor } from './summarizing-compactor.js';
import { type ExecutionProvider, NOOP_EXECUTION_PROVIDER } from './execution/execution-provider.js';
import { type Hook } from './hooks/hook.js';
import { type ConcurrencyLimits, resolveConcurrency, resolveLimits, type SessionLimits } from './limits.js';
import { SessionLogger } from './logger.js';
import { Permission } from './permissions/permission.js';
import { newSessionId, requireSessionId } from './session-id.js';
import { DEFAULT_EVENT_BUFFER } from './events/event-stream.js';
import { type ToolBinding } from './tools/tool-binding.js';
import { type SessionStore } from './store/session-store.js';

/**
 * The registry of options given none: sessions opened from one options object share it (the reference's
 * contract), so a secret registered through one of them is redacted in all.
 */
const DEFAULT_REGISTRIES = new WeakMap<SessionOptions, SecretRegistry>();

function defaultRegistry(options: SessionOptions): SecretRegistry {
  let registry = DEFAULT_REGISTRIES.get(options);
  if (!registry) {
    registry = new SecretRegistry();
    DEFAULT_REGISTRIES.set(options, registry);
  }
  return registry;
}

/** Stateless (it summarises with the session's own model): one instance serves every session. */
const DEFAULT_COMPACTOR = new SummarizingCompactor();

export interface SessionOptions {
  readonly model: Model;
  /** Default `sess-<uuidv7>`. */
  readonly sessionId?: string;
  /** The first message of every request; blank means none. Never stored with the conversation. */
  readonly systemPrompt?: string;
  readonly tools?: readonly ToolBinding[];
  readonly hooks?: readonly Hook[];
  /** Default `Permission.empty(DEFAULT)`: reads run, writes, execution and network ask. */
  readonly permission?: Permission;
  /** Adds the model's AskUserQuestion tool. */
  readonly askUserQuestion?: boolean;
  readonly limits?: Partial<SessionLimits>;
  readonly concurrency?: Partial<ConcurrencyLimits>;
  readonly costCalculator?: CostCalculator;
  /**
   * The session's one registry; default an empty one (redacts nothing) that every session opened from
   * this same options object shares.
   */
  readonly secrets?: SecretRegistry;
  readonly tokenCounter?: TokenCounter;
  /** Runs at 95 % context fill; default a SummarizingCompactor on the session's model. */
  readonly contextCompactor?: ContextCompactor;
  /** Sent on every turn of every run that was not given its own schema. */
  readonly outputSchema?: OutputSchema<unknown>;
  readonly traceListener?: TraceListener;
  readonly traceDetail?: TraceDetail;
  readonly logger?: SessionLogger;
  /** Events each reader may hold unread; default 256. */
  readonly eventBufferSize?: number;
  /** Started at open, ended at close; default a no-op provider. */
  readonly executionProvider?: ExecutionProvider;
  /**
   * Keeps the conversation under the session id: open loads it (or starts it), each turn appends what
   * it added. One writer per id: a second writer's run ends ErrorDuringExecution `SessionConflict`.
   */
  readonly store?: SessionStore;
}

export interface ResolvedOptions {
  readonly model: Model;
  readonly sessionId: string;
  readonly systemPrompt: string | undefined;
  readonly tools: readonly ToolBinding[];
  readonly hooks: readonly Hook[];
  readonly permission: Permission;
  readonly askUserQuestion: boolean;
  readonly limits: SessionLimits;
  readonly concurrency: ConcurrencyLimits;
  readonly costCalculator: CostCalculator;
  readonly secrets: SecretRegistry;
  readonly tokenCounter: TokenCounter;
  readonly contextCompactor: ContextCompactor;
  readonly outputSchema: OutputSchema<unknown> | undefined;
  readonly traceListener: TraceListener | undefined;
  readonly traceDetail: TraceDetail | undefined;
  readonly logger: SessionLogger;
  readonly eventBufferSize: number;
  readonly executionProvider: ExecutionProvider;
  readonly store: SessionStore | undefined;
}

export function resolveOptions(options: SessionOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object' || !options.model) {
    throw new InvalidArgumentError('session options need a model');
  }
  const bufferSize = options.eventBufferSize ?? DEFAULT_EVENT_BUFFER;
  if (!Number.isSafeInteger(bufferSize) || bufferSize < 1) {
    throw new InvalidArgumentError('eventBufferSize must be a positive integer');
  }
  const systemPrompt = options.systemPrompt?.trim() ? options.systemPrompt : undefined;
  return Object.freeze({
    model: options.model,
    sessionId: options.sessionId === undefined ? newSessionId() : requireSessionId(options.sessionId),
    systemPrompt,
    tools: Object.freeze([...(options.tools ?? [])]),
    hooks: Object.freeze([...(options.hooks ?? [])]),
    permission: options.permission ?? Permission.empty(),
    askUserQuestion: options.askUserQuestion ?? false,
    limits: resolveLimits(options.limits),
    concurrency: resolveConcurrency(options.concurrency),
    costCalculator: options.costCalculator ?? CostCalculator.ZERO,
    secrets: options.secrets ?? defaultRegistry(options),
    tokenCounter: options.tokenCounter ?? TokenCounter.charBased(),
    contextCompactor: options.contextCompactor ?? DEFAULT_COMPACTOR,
    outputSchema: options.outputSchema,
    traceListener: options.traceListener,
    traceDetail: options.traceDetail,
    logger: options.logger ?? SessionLogger.console(),
    eventBufferSize: bufferSize,
    executionProvider: options.executionProvider ?? NOOP_EXECUTION_PROVIDER,
    store: options.store,
  });
}
