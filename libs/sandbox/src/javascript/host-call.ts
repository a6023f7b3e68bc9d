/**
 * Runs one host-function call a snippet made, and answers it as the JSON-RPC frame text the child
 * waits for. The child is untrusted: the name must be registered, the arguments must pass the declared
 * parameters, and the handler gets a fresh object of declared names only. The handler runs in this
 * process with a timeout and a signal that also fires when the execute ends.
 *
 * What goes back into the sandbox — the result, or a refusal's message — is redacted with the session's
 * registry first, so a registered secret never enters the sandbox (where a snippet could transform it
 * past the output redaction). The result must be JSON and fit in a frame.
 */
import { type Redactor } from '@helios/core';
import { JSONRPC, MAX_FRAME_CHARS, RpcErrorCode } from '../child/protocol.js';
import { checkArguments } from '../host/host-arguments.js';
import { type HostFunctionRegistry } from '../host/host-function.js';

export interface HostCallSettings {
  readonly registry: HostFunctionRegistry;
  readonly sessionId: string;
  /** The current registry snapshot, taken per call. */
  readonly redactor: () => Redactor;
}

/** Room in a frame for everything around the result. */
const FRAME_OVERHEAD = 200;

export async function answerHostCall(
  settings: HostCallSettings,
  call: { readonly id: string; readonly name: string; readonly args: unknown },
  limits: { readonly timeoutMs: number; readonly signal: AbortSignal },
): Promise<string> {
  const redactor = settings.redactor();
  const refuse = (message: string, code: number = RpcErrorCode.INVALID_PARAMS): string =>
    JSON.stringify({ jsonrpc: JSONRPC, id: call.id, error: { code, message: redactor.redactText(message) } });
  const fn = settings.registry.get(call.name);
  if (fn === undefined) return refuse(`no host function named '${call.name}'`);
  const checked = checkArguments(fn, call.args);
  if (!checked.ok) return refuse(checked.error);
  const stop = callStopper(limits);
  let value: unknown;
  try {
    const context = { sessionId: settings.sessionId, signal: stop.signal };
    value = await raceSignal(
      Promise.resolve().then(() => fn.handler(checked.args, context)),
      stop.signal,
    );
  } catch (error) {
    const why = stop.timedOut() ? `timed out after ${limits.timeoutMs} ms` : messageOf(error);
    return refuse(`${fn.name} failed: ${why}`, RpcErrorCode.INTERNAL);
  } finally {
    stop.release();
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value === undefined ? null : value);
  } catch {
    json = undefined;
  }
  if (json === undefined)
    return refuse(`${fn.name} returned a value that is not JSON`, RpcErrorCode.INTERNAL);
  const redacted = redactor.redactText(json);
  if (redacted.length > MAX_FRAME_CHARS - FRAME_OVERHEAD) {
    return refuse(
      `${fn.name} returned ${redacted.length} chars of JSON, more than a frame holds`,
      RpcErrorCode.INTERNAL,
    );
  }
  if (redacted !== json && !isJson(redacted)) {
    return refuse(`${fn.name} returned a value holding a registered secret`, RpcErrorCode.INTERNAL);
  }
  return `{"jsonrpc":"${JSONRPC}","id":${JSON.stringify(call.id)},"result":${redacted}}`;
}

/**
 * A signal firing at the call's timeout or when the execute ends. Its own timer, held here until
 * released: a bare AbortSignal.timeout inside AbortSignal.any can be collected before it fires.
 */
function callStopper(limits: { readonly timeoutMs: number; readonly signal: AbortSignal }) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${limits.timeoutMs} ms`, 'TimeoutError'));
  }, limits.timeoutMs);
  const onEnd = (): void => controller.abort(limits.signal.reason);
  if (limits.signal.aborted) onEnd();
  else limits.signal.addEventListener('abort', onEnd, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      limits.signal.removeEventListener('abort', onEnd);
    },
  };
}

function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
