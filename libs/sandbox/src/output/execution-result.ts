/**
 * Turns captured streams into the ExecutionResult the model may see: each stream cut (dropping a
 * trailing partial secret) and marked, then everything redacted with one fresh snapshot of the
 * session's registry, the markers counted per secret.
 */
import { type SecretRegistry } from '@helios/core';
import { type ExecutionResult } from '../execution/execution-types.js';
import { type StreamCapture } from './stream-capture.js';

export interface CapturedRun {
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly stdout: StreamCapture;
  readonly stderr: StreamCapture;
  readonly value?: string;
  readonly durationMs: number;
  /** Lines the provider adds before stderr (a restarted sandbox, a timeout). */
  readonly notes?: readonly string[];
}

export function executionResult(run: CapturedRun, registry: SecretRegistry): ExecutionResult {
  const redactor = registry.redactor();
  const counts = new Map<string, number>();
  const redact = (text: string): string => {
    const result = redactor.redact(text);
    for (const [name, count] of result.counts) counts.set(name, (counts.get(name) ?? 0) + count);
    return result.text;
  };
  const notes = (run.notes ?? []).map((note) => `${note}\n`).join('');
  return Object.freeze({
    exitCode: run.exitCode,
    stdout: redact(run.stdout.finish(redactor)),
    stderr: redact(notes + run.stderr.finish(redactor)),
    ...(run.value === undefined ? {} : { value: redact(run.value) }),
    durationMs: run.durationMs,
    timedOut: run.timedOut,
    secretRedactionCounts: counts,
  });
}
