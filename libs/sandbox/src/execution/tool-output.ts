/**
 * What the model reads of an execute (reference §2.10, the Execute row): a header line
 * `[runtime R exit N [TIMEOUT] duration Xms]`, then stdout, the completion value as `=> value`
 * (JavaScript and TypeScript), and a `[stderr]` section when there was any — or `(no output)`.
 * Everything after the header is cut to `maxOutputCharsToModel` characters (reference §5.6; 0 turns
 * the cut off), ending with a line that says how many were cut: the model can print less, or keep a
 * long value in a variable and look at parts of it.
 */
import { InvalidArgumentError } from '@helios/core';
import { type ExecutionResult } from './execution-types.js';

/** The default of `maxOutputCharsToModel`. */
export const DEFAULT_MAX_OUTPUT_CHARS_TO_MODEL = 5_000;

/** Checks a `maxOutputCharsToModel` setting: a non-negative integer (0: no cut). */
export function outputCharsLimit(value: number | undefined): number {
  const limit = value ?? DEFAULT_MAX_OUTPUT_CHARS_TO_MODEL;
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new InvalidArgumentError(`maxOutputCharsToModel must be an integer ≥ 0, got ${String(value)}`);
  return limit;
}

/** The result as the model reads it, its body cut to `maxChars` (0: uncut). */
export function resultText(
  runtime: string,
  result: ExecutionResult,
  maxChars = DEFAULT_MAX_OUTPUT_CHARS_TO_MODEL,
): string {
  const timeout = result.timedOut ? ' TIMEOUT' : '';
  const header = `[runtime ${runtime} exit ${result.exitCode}${timeout} duration ${result.durationMs}ms]`;
  return `${header}\n${cut(body(result), maxChars)}`;
}

function body(result: ExecutionResult): string {
  let text = '';
  if (result.stdout !== '') text += withNewline(result.stdout);
  if (result.value !== undefined) text += `=> ${withNewline(result.value)}`;
  if (result.stderr !== '') text += `[stderr]\n${withNewline(result.stderr)}`;
  return text === '' ? '(no output)' : text.trimEnd();
}

function cut(text: string, maxChars: number): string {
  if (maxChars === 0 || text.length <= maxChars) return text;
  // Never keep half of a surrogate pair.
  const keep = isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  const kept = text.slice(0, keep);
  return `${kept}${kept.endsWith('\n') ? '' : '\n'}[output cut: ${text.length - keep} more chars not shown (maxOutputCharsToModel ${maxChars})]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
