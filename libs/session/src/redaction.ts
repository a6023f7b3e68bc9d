/**
 * The session's use of its SecretRegistry. Every call takes the registry's current snapshot, so a
 * secret registered mid-session is honoured from the next redaction on.
 */
import { type SecretRegistry, type ToolCall } from '@helios/core';
import { SerializedError } from './serialized-error.js';

export class SessionRedaction {
  constructor(readonly registry: SecretRegistry) {}

  text(text: string): string {
    return this.registry.size === 0 ? text : this.registry.redactor().redactText(text);
  }

  /** The redacted text and how many occurrences of each secret it replaced. */
  counted(text: string): { readonly text: string; readonly counts: Readonly<Record<string, number>> } {
    if (this.registry.size === 0) return { text, counts: EMPTY_COUNTS };
    const result = this.registry.redactor().redact(text);
    return {
      text: result.text,
      counts: result.total === 0 ? EMPTY_COUNTS : Object.fromEntries(result.counts),
    };
  }

  /** Keys and string values, recursively: what events carry; the tool and history keep the original. */
  value(value: unknown): unknown {
    if (this.registry.size === 0) return value;
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[this.text(key)] = this.value(item);
      return copy;
    }
    return value;
  }

  args(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    return this.registry.size === 0 ? args : (this.value(args) as Readonly<Record<string, unknown>>);
  }

  call(call: ToolCall): ToolCall {
    if (this.registry.size === 0) return call;
    return Object.freeze({ id: call.id, name: call.name, arguments: this.args(call.arguments) });
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

const EMPTY_COUNTS: Readonly<Record<string, number>> = Object.freeze({});
