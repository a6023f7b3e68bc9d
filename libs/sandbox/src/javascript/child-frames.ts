/**
 * Reads a frame from the sandbox child, which is untrusted: anything that is not exactly one of the
 * shapes the child sends is `Invalid`, and the caller ends the sandbox. Whether the frame belongs to
 * the execute in flight is the caller's check; this one is about shape only.
 */
import { BOOT_ID, type ExecuteOutcome, JSONRPC, type OutputStream } from '../child/protocol.js';

export type ChildFrame =
  | { readonly type: 'Booted'; readonly engine: string }
  | { readonly type: 'Output'; readonly exec: string; readonly stream: OutputStream; readonly text: string }
  | {
      readonly type: 'Call';
      readonly id: string;
      readonly exec: string;
      readonly name: string;
      readonly args: unknown;
    }
  | { readonly type: 'Executed'; readonly id: string; readonly outcome: ExecuteOutcome }
  | { readonly type: 'Invalid'; readonly reason: string };

type Json = Record<string, unknown>;

export function readChildFrame(frame: unknown): ChildFrame {
  if (!isObject(frame) || frame['jsonrpc'] !== JSONRPC) return invalid('a frame that is not JSON-RPC 2.0');
  const { id, method, params, result } = frame;
  if (method === 'output' && id === undefined) return outputFrame(params);
  if (method === 'call' && typeof id === 'string') return callFrame(id, params);
  if (method === undefined && id === BOOT_ID && isObject(result) && result['ready'] === true) {
    return { type: 'Booted', engine: typeof result['engine'] === 'string' ? result['engine'] : 'unknown' };
  }
  if (method === undefined && typeof id === 'string') return executedFrame(id, result);
  return invalid(`an unexpected frame (${typeof method === 'string' ? `method ${method}` : 'no method'})`);
}

function outputFrame(params: unknown): ChildFrame {
  if (!isObject(params)) return invalid('output without params');
  const { exec, stream, text } = params;
  if (typeof exec !== 'string' || (stream !== 'stdout' && stream !== 'stderr') || typeof text !== 'string') {
    return invalid('a malformed output frame');
  }
  return { type: 'Output', exec, stream, text };
}

function callFrame(id: string, params: unknown): ChildFrame {
  if (!isObject(params) || typeof params['exec'] !== 'string' || typeof params['name'] !== 'string') {
    return invalid('a malformed host call');
  }
  return { type: 'Call', id, exec: params['exec'], name: params['name'], args: params['args'] };
}

function executedFrame(id: string, result: unknown): ChildFrame {
  if (!isObject(result)) return invalid('an execute answer without a result');
  const { exitCode, timedOut, value, discarded, jobsLeft } = result;
  const stdout = isObject(discarded) ? discarded['stdout'] : undefined;
  const stderr = isObject(discarded) ? discarded['stderr'] : undefined;
  if (
    (exitCode !== 0 && exitCode !== 1) ||
    typeof timedOut !== 'boolean' ||
    !isCount(stdout) ||
    !isCount(stderr) ||
    (value !== undefined && typeof value !== 'string') ||
    (jobsLeft !== undefined && jobsLeft !== true)
  ) {
    return invalid('a malformed execute answer');
  }
  const outcome: ExecuteOutcome = { exitCode, timedOut, value, discarded: { stdout, stderr }, jobsLeft };
  return { type: 'Executed', id, outcome };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(reason: string): ChildFrame {
  return { type: 'Invalid', reason: `protocol violation: ${reason}` };
}
