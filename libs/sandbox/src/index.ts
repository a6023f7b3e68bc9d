/**
 * @helios/sandbox — Execution providers for sandboxed code execution: the JavaScript/TypeScript sandbox
 * (QuickJS in WebAssembly, in a child process, under bubblewrap when available), the local process
 * provider for BASH (no sandbox), host functions, the prelude and the Execute tool.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  type CodeExecutionProvider,
  type ExecutionCapabilities,
  type ExecutionRequest,
  ExecutionResult,
  ExecutionRuntime,
} from './execution/execution-types.js';
export {
  EXECUTE_TOOL,
  executeTool,
  executeToolBinding,
  type ExecuteToolOptions,
  MAX_SCRIPT_CHARS,
} from './execution/execute-tool.js';
export { DEFAULT_MAX_OUTPUT_CHARS_TO_MODEL, resultText } from './execution/tool-output.js';
export {
  ENVIRONMENT_NAME,
  MAX_INPUT_CHARS,
  MAX_INPUT_ENTRIES,
  requestInputsProblem,
} from './execution/request-inputs.js';
export { withExecutionProvider } from './execution/with-execution-provider.js';
export {
  type HostArguments,
  type HostCallContext,
  HostFunction,
  type HostFunctionHandler,
  HostFunctionRegistry,
  HostParameter,
  type HostParameterType,
  RESERVED_HOST_NAMES,
} from './host/host-function.js';
export { SandboxPrelude } from './host/sandbox-prelude.js';
export { SandboxPolicy } from './policy/sandbox-policy.js';
export { MAX_FRAME_CHARS, MAX_STREAM_CHARS, MAX_VALUE_CHARS } from './child/protocol.js';
export { type OsLayer, type OsSandboxMode } from './process/bubblewrap.js';
export {
  JavaScriptExecutionProvider,
  OsSandboxUnavailableError,
} from './javascript/javascript-execution-provider.js';
export { type JavaScriptProviderOptions } from './javascript/javascript-config.js';
export { SandboxStartError } from './javascript/sandbox.js';
export { LocalProcessExecutionProvider } from './local/local-process-execution-provider.js';
export { type LocalProcessOptions } from './local/local-process-config.js';
