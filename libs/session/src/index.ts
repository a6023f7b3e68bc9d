/**
 * @helios/session — AgentSession: the steerable multi-run agent loop with events, hooks, permissions, limits and stores.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export { AgentSession, type EventsOptions } from './agent-session.js';
export { type SessionOptions } from './options.js';
export {
  type ConcurrencyLimits,
  DEFAULT_CONCURRENCY,
  DEFAULT_LIMITS,
  effectiveContextTokens,
  type SessionLimits,
  StreamRetryPolicy,
} from './limits.js';
export {
  RunCancelledError,
  RunNotSuccessfulError,
  SessionClosedError,
  SessionUnavailableError,
  SteeringQueueFullError,
  StreamIdleTimeoutError,
  UnknownQuestionError,
} from './errors.js';
export {
  type ExecutionProvider,
  NOOP_EXECUTION_PROVIDER,
  SessionStartOutcome,
} from './execution/execution-provider.js';
export { SessionLogger } from './logger.js';
export { isValidSessionId, newSessionId, requireSessionId } from './session-id.js';
export { SerializedError } from './serialized-error.js';
export type {
  Cancelled,
  ErrorDuringExecution,
  ErrorMaxBudgetUsd,
  ErrorMaxTurns,
  ErrorMaxWallClock,
  ErrorTransientStream,
  Refusal,
  ResultMessage,
  Success,
} from './result-message.js';
export { StopReason } from './stop-reason.js';
export { isControlEvent, type QueryEvent, type QueryEventType } from './query-event.js';
export type * from './query-event.js';
export { fromWire, type QueryEventWire, toWire } from './wire/event-wire.js';
export { resultFromWire, resultToWire, type ResultMessageWire } from './wire/result-wire.js';
export { WireFormatError } from './wire/wire-error.js';
export { type Wire } from './wire/wire-type.js';
export { CONTROL_EVENT_WAIT_MS, DEFAULT_EVENT_BUFFER, EventStream } from './events/event-stream.js';
export {
  type CompactionPayload,
  type Hook,
  type HookContext,
  type HookPhase,
  type HookReturn,
  type TurnResponse,
} from './hooks/hook.js';
export { HookOutcome, type HookOutcomeKind } from './hooks/hook-outcome.js';
export {
  Permission,
  PermissionMode,
  type PermissionDecision,
  type PermissionRules,
  categoryDefault,
} from './permissions/permission.js';
export {
  formatRule,
  parseRule,
  PermissionEffect,
  type PermissionRule,
  permissionRule,
} from './permissions/permission-rule.js';
export { PERMISSION_HOOK_NAME } from './permissions/permission-hook.js';
export {
  MODEL_QUESTION_PREFIX,
  PERMISSION_QUESTION_PREFIX,
  type QuestionOption,
  type QuestionRequest,
  type QuestionResponse,
} from './questions/question.js';
export { ASK_USER_QUESTION } from './tools/ask-user-question.js';
export {
  argumentKey,
  type BindOptions,
  bindTool,
  type ToolBinding,
  ToolCategory,
  type ToolVisibilityContext,
} from './tools/tool-binding.js';
export { type CompactionContext, type CompactionResult, ContextCompactor } from './compaction.js';
export {
  DEFAULT_SUMMARY_PROMPT,
  DEFAULT_SUMMARY_TIMEOUT_MS,
  SUMMARY_HEADER,
  SummarizingCompactor,
  type SummarizingCompactorOptions,
} from './summarizing-compactor.js';
export { WorkspaceRoot, type WorkspaceRootOptions } from './workspace/workspace-root.js';
export { WorkspacePathError, type WorkspaceRefusal } from './workspace/workspace-error.js';
export type {
  WorkspaceReadOptions,
  WalkEntry,
  WorkspaceWalkOptions,
  WorkspaceEntry,
  WorkspaceEntryType,
  WorkspaceStat,
  WorkspaceWriteOptions,
} from './workspace/io-common.js';
export {
  MAX_IMAGE_BYTES,
  MAX_PDF_BYTES,
  MAX_READ_FILE_BYTES,
  READ_TOOL,
  readTool,
} from './workspace-tools/read-tool.js';
export { DEFAULT_READ_LIMIT, MAX_LINE_CHARS, MAX_READ_OUTPUT_CHARS } from './workspace-tools/line-pager.js';
export {
  GREP_TOOL,
  GREP_TRUNCATED,
  grepTool,
  MAX_GREP_FILE_BYTES,
  MAX_GREP_MATCHES,
} from './workspace-tools/grep-tool.js';
export { GLOB_TOOL, GLOB_TRUNCATED, globTool, MAX_GLOB_RESULTS } from './workspace-tools/glob-tool.js';
export { LS_EMPTY, LS_TOOL, lsTool } from './workspace-tools/ls-tool.js';
export { RESERVED_MEMORY_DIR } from './workspace-tools/reserved.js';
export { workspaceToolBindings } from './workspace-tools/workspace-tools.js';
export {
  FileSystemMemoryBackend,
  MAX_MEMORY_FILE_BYTES,
  type MemoryBackend,
  MEMORY_EMPTY,
  MEMORY_EMPTY_FILE,
} from './memory/file-system-memory-backend.js';
export { MemoryError, type MemoryRefusal } from './memory/memory-error.js';
export { MEMORIES } from './memory/memory-path.js';
export {
  MEMORY_READ_TOOL,
  MEMORY_WRITE_OPS,
  MEMORY_WRITE_TOOL,
  memoryReadTool,
  memoryToolBindings,
  memoryWriteTool,
  type MemoryWriteOp,
} from './memory/memory-tools.js';
export { SessionOptionsBuilder } from './presets/session-options-builder.js';
export { SessionPresets } from './presets/session-presets.js';

export {
  SessionConflictError,
  SessionStoreCorruptError,
  type SessionStore,
  type StoredEntry,
  type StoredSession,
} from './store/session-store.js';
export { InMemorySessionStore } from './store/in-memory-session-store.js';
export { FileSessionStore, type FileSessionStoreOptions } from './store/file-session-store.js';
export { SessionStoreBusyError } from './store/file-lock.js';
export { entryToWire, readEntry, type StoredEntryWire } from './store/entry-wire.js';
export { messageToWire, readMessage, type MessageWire } from './wire/message-wire.js';
