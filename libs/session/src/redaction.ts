/**
 * The session's use of its SecretRegistry. Every call takes the registry's current snapshot, so a
 * secret registered mid-session is honoured from the next redaction on.
 */
import { type InlineFile, type SecretRegistry, type ToolCall, type ToolResult } from '@helios/core';
import { SerializedError } from './serialized-error.js';

export class SessionRedaction {
  constructor(readonly registry: SecretRegistry) {}

  text(text: string): string {
    return this.registry.size === 0 ? text : this.registry.redactor().redactText(text);
  }

  /**
   * A tool's result as everything after the tool sees it: its text, its structured data (keys and
   * string values) and its attachments' names. Counts add up every replacement.
   */
  result(raw: ToolResult): {
    readonly result: ToolResult;
    readonly counts: Readonly<Record<string, number>>;
  } {
    if (this.registry.size === 0) return { result: raw, counts: EMPTY_COUNTS };
    const redactor = this.registry.redactor();
    const counts = new Map<string, number>();
    const redact = (text: string): string => {
      const result = redactor.redact(text);
      for (const [name, n] of result.counts) counts.set(name, (counts.get(name) ?? 0) + n);
      return result.text;
    };
    const output = redact(raw.output);
    const data = raw.type === 'Success' && raw.data !== undefined ? redactValue(raw.data, redact) : undefined;
    const attachments = raw.attachments.map((file) => redactFile(file, redact));
    if (counts.size === 0) return { result: raw, counts: EMPTY_COUNTS };
    const result = Object.freeze({
      ...raw,
      output,
      ...(data === undefined ? {} : { data }),
      attachments: Object.freeze(attachments),
    });
    return { result, counts: Object.freeze(Object.fromEntries(counts)) };
  }

  /** Keys and string values, recursively: what events carry; the tool and history keep the original. */
  value(value: unknown): unknown {
    if (this.registry.size === 0) return value;
    const redactor = this.registry.redactor();
    return redactValue(value, (text) => redactor.redactText(text));
  }

  args(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    return this.registry.size === 0 ? args : (this.value(args) as Readonly<Record<string, unknown>>);
  }

  call(call: ToolCall): ToolCall {
    if (this.registry.size === 0) return call;
    // The name is the model's text too: a call to a tool it made up can carry anything.
    return Object.freeze({ id: call.id, name: this.text(call.name), arguments: this.args(call.arguments) });
  }

  error(error: unknown): SerializedError {
    return SerializedError.of(error, (text) => this.text(text));
  }

  /** A copy safe to log: same class name, message and stack redacted. */
  errorForLog(error: unknown): unknown {
    if (!(error instanceof Error) || this.registry.size === 0) return error;
    const copy = new Error(this.text(error.message));
    copy.name = error.name;
    copy.stack = this.text(error.stack ?? '');
    return copy;
  }
}

function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[redact(key)] = redactValue(item, redact);
    return copy;
  }
  return value;
}

/** The bytes are the file (images, PDFs pass unredacted, as documented); its labels are text. */
function redactFile(file: InlineFile, redact: (text: string) => string): InlineFile {
  return Object.freeze({
    ...file,
    mimeType: redact(file.mimeType),
    ...(file.name === undefined ? {} : { name: redact(file.name) }),
  });
}

const EMPTY_COUNTS: Readonly<Record<string, number>> = Object.freeze({});
