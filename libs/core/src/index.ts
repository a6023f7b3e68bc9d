/**
 * @helios/core — Model interface and value types, tools, structured output with provenance, fault
 * tolerance, tracing, secret redaction and micro-USD cost.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export { HeliosError, InvalidArgumentError } from './common/helios-error.js';
export { abortReason, delay, isAbortError, raceAbort, throwIfAborted } from './common/abort.js';
export { newId } from './common/ids.js';
export { jsonNestingExceeds } from './common/json-nesting.js';
export { storableJson, storableJsonWithin, storableText } from './common/storable-text.js';
export { type Mutable } from './common/mutable.js';
export { isProgrammingError } from './common/programming-error.js';

export { type FileReference, type InlineFile, fileReference, inlineFile } from './model/attachments.js';
export { type Citation } from './model/citation.js';
export { FinishReason, parseFinishReason } from './model/finish-reason.js';
export {
  type AssistantMessage,
  type AssistantParts,
  Message,
  Role,
  type SystemMessage,
  type ToolMessage,
  type UserAttachments,
  type UserMessage,
} from './model/message.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_RESPONSE_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  ModelConfig,
  type ModelConfigOptions,
  RawOutputCapturePolicy,
} from './model/model-config.js';
export {
  Reasoning,
  ReasoningDisplay,
  type ReasoningEffort,
  ReasoningLevel,
  type ReasoningOff,
} from './model/reasoning.js';
export { type ToolCall, toolCall } from './model/tool-call.js';
export { ToolChoice } from './model/tool-choice.js';
export { type CacheTokens, Usage } from './model/usage.js';
export type {
  CitationsChunk,
  MessageStop,
  ModelChunk,
  TextDelta,
  ThinkingDelta,
  ToolUseDelta,
  ToolUseStart,
  ToolUseStop,
  UsageDelta,
} from './model/model-chunk.js';
export { type Response, responseToMessage } from './model/response.js';
export {
  IncompleteStreamError,
  ModelClosedError,
  ProviderError,
  TransientStreamError,
} from './model/model-errors.js';
export { type ChunkSource, createModelStream, type ModelStream } from './model/model-stream.js';
export { drainStream, responseChunks } from './model/chunk-drain.js';
export type {
  ChatOptions,
  Model,
  ModelRequest,
  StreamOptions,
  StructuredChatOptions,
} from './model/model.js';
export {
  adaptBlockingModel,
  type BlockingModel,
  createModel,
  type StreamingModelSpec,
} from './model/create-model.js';

export {
  type FieldError,
  type JsonSchema,
  type JsonSchemaType,
  describeFieldError,
} from './schema/json-schema.js';
export { compileJsonSchema, type JsonValidator, validateJson } from './schema/schema-validator.js';
export { type LenientJsonResult, parseLenientJson } from './schema/lenient-json.js';
export { OutputSchema, type OutputSchemaOptions, type SchemaCheck } from './schema/output-schema.js';
export { StructuredOutputParseError } from './schema/structured-output-parse-error.js';
export { FIELD_PROVENANCE_SCHEMA } from './schema/provenance-json-schema.js';

export {
  Confidence,
  type FieldProvenance,
  fieldProvenance,
  type FieldProvenanceInput,
  parseConfidence,
  type Provenanced,
  provenanceFor,
  type Source,
  source,
} from './provenance/provenance.js';
export {
  DEFAULT_EXCERPT_MAX_CHARS,
  ProvenanceValidator,
  ValidationResult,
} from './provenance/provenance-validator.js';

export {
  defineTool,
  type JsonSchemaToolOptions,
  type ParameterToolOptions,
  type Tool,
  type ToolArguments,
  type ToolDefinition,
  type ToolExecutor,
  toolDefinition,
  type ZodToolOptions,
} from './tool/tool.js';
export { ParameterType, parametersJsonSchema, type ToolParameter } from './tool/tool-parameter.js';
export { type SuccessExtras, type ToolFailure, ToolResult, type ToolSuccess } from './tool/tool-result.js';
export {
  type OwnedToolContext,
  SessionContext,
  ToolContext,
  type ToolContextOptions,
} from './tool/tool-context.js';

export {
  CommandGrant,
  CommandGrantBuilder,
  DEFAULT_GRANT_MAX_CONCURRENT,
  DEFAULT_GRANT_MAX_OUTPUT_BYTES,
  DEFAULT_GRANT_TIMEOUT_MS,
  MIN_GRANT_MAX_OUTPUT_BYTES,
} from './command/command-grant.js';
export { type ArgValidator, MAX_GRANT_ARGS, MAX_GRANT_ARGV_BYTES } from './command/argv-check.js';
export { CALL_MARKER_ENV, DEFAULT_GRANT_PATH } from './command/grant-environment.js';
export { type CallProcesses, reapCall } from './command/descendant-reaper.js';
export { startTimeOf } from './command/process-table.js';

export { InvalidSecretError, MIN_SECRET_LENGTH, SecretRegistry } from './secrets/secret-registry.js';
export { type RedactionResult, Redactor, redactionMarker } from './secrets/redactor.js';

export { CostEstimate } from './cost/cost-estimate.js';
export { CostCalculator } from './cost/cost-calculator.js';
export { type CacheRates, Pricing } from './cost/pricing.js';
export { decimalToMicroUnits, formatMicroUnits, MICRO_UNITS_PER_UNIT } from './cost/micro-units.js';
export { formatMicroUsd, MICRO_USD_PER_USD, usdToMicroUsd } from './cost/usd.js';

export { DEFAULT_CHARS_PER_TOKEN, MESSAGE_OVERHEAD_TOKENS, TokenCounter } from './tokens/token-counter.js';

export { Backoff, DEFAULT_MAX_BACKOFF_MS, type JitterOptions } from './fault/backoff.js';
export { RetryPolicy, type RetryPolicyOptions, type Operation } from './fault/retry-policy.js';
export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  CircuitState,
  type StateListener,
} from './fault/circuit-breaker.js';
export { FaultTolerance, type FaultToleranceOptions } from './fault/fault-tolerance.js';
export { CircuitBreakerOpenError, OperationTimeoutError, RetryExhaustedError } from './fault/fault-errors.js';

export {
  hookSpanKind,
  type Span,
  type SpanKind,
  SpanStatus,
  type Trace,
  TraceDetail,
  type TraceListener,
  toolSpanKind,
} from './trace/trace.js';
export {
  SpanRecorder,
  type SpanSettings,
  type TraceEnd,
  TraceRecorder,
  type TraceStart,
} from './trace/trace-recorder.js';
