/**
 * Turns captured streams into the ExecutionResult the model may see: each stream cut (dropping a
 * trailing partial secret) and marked, then everything redacted with one fresh snapshot of the
 * session's registry, the markers counted per secret.
 */
import { type Redactor, type SecretRegistry } from '@helios/core';
import { type ExecutionResult } from '../execution/execution-types.js';
import { type StreamCapture } from './stream-capture.js';

export interface CapturedRun {
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly stdout: StreamCapture;
  readonly stderr: StreamCapture;
  readonly value?: string | undefined;
  readonly durationMs: number;
  /** Lines the provider adds before stderr (a restarted sandbox, a timeout). */
  readonly notes?: readonly string[];
}

export function executionResult(run: CapturedRun, registry: SecretRegistry): ExecutionResult {
  const redactor = registry.redactor();
  const counts = new Map<string, number>();
  const notes = run.notes === undefined || run.notes.length === 0 ? '' : `${run.notes.join('\n')}\n`;
  const result: { -readonly [K in keyof ExecutionResult]: ExecutionResult[K] } = {
    exitCode: run.exitCode,
    stdout: redact(redactor, run.stdout.finish(redactor), counts),
    stderr: redact(redactor, notes + run.stderr.finish(redactor), counts),
    durationMs: run.durationMs,
    timedOut: run.timedOut,
    secretRedactionCounts: counts,
  };
  if (run.value !== undefined) result.value = redact(redactor, run.value, counts);
  return Object.freeze(result);
}

/** The text redacted, its markers added to `counts`; nothing to do without text or secrets. */
function redact(redactor: Redactor, text: string, counts: Map<string, number>): string {
  if (text === '' || redactor.names.length === 0) return text;
  const result = redactor.redact(text);
  for (const [name, count] of result.counts) counts.set(name, (counts.get(name) ?? 0) + count);
  return result.text;
}
