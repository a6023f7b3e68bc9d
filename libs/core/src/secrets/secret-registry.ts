/**
 * Named secret values a session must never let through. Values are restricted to JSON-safe printable
 * ASCII so a registered value keeps its exact text through JSON serialisation, where redaction runs.
 */
import { HeliosError } from '../common/helios-error.js';
import { type RedactionResult, Redactor } from './redactor.js';

export const MIN_SECRET_LENGTH = 8;

/** A registration the registry refuses; the message never contains the value. */
export class InvalidSecretError extends HeliosError {
  readonly code = 'INVALID_SECRET';
}

export class SecretRegistry {
  readonly #secrets = new Map<string, string>();
  #redactor: Redactor | undefined;

  /** Registers (or replaces) the value under `name`; throws InvalidSecretError on a bad name or value. */
  register(name: string, value: string): void {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InvalidSecretError('secret name must be a non-blank string');
    }
    const problem = valueProblem(value);
    if (problem !== undefined) throw new InvalidSecretError(`secret '${name}' is refused: ${problem}`);
    this.#secrets.set(name, value);
    this.#redactor = undefined;
  }

  get size(): number {
    return this.#secrets.size;
  }

  /** Names in registration order. */
  names(): readonly string[] {
    return [...this.#secrets.keys()];
  }

  /** A snapshot of the current secrets, reused until the next `register`. */
  redactor(): Redactor {
    this.#redactor ??= this.#secrets.size === 0 ? Redactor.EMPTY : new Redactor([...this.#secrets]);
    return this.#redactor;
  }

  redact(text: string): RedactionResult {
    return this.redactor().redact(text);
  }

  leaks(text: string): boolean {
    return this.redactor().leaks(text);
  }

  trimPartialSecret(text: string): string {
    return this.redactor().trimPartialSecret(text);
  }

  /** Markers per name in an already redacted text. */
  counts(redactedText: string): ReadonlyMap<string, number> {
    return this.redactor().counts(redactedText);
  }
}

function valueProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `value must be a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length < MIN_SECRET_LENGTH) {
    return `value has ${value.length} characters; at least ${MIN_SECRET_LENGTH} are required`;
  }
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code > 0x7e && code !== 0x7f) return `value contains a non-ASCII character at index ${i}`;
    if (code < 0x20 || code === 0x7f) return `value contains a control character at index ${i}`;
    if (code === 0x22) return `value contains '"' at index ${i}; JSON would escape it`;
    if (code === 0x5c) return `value contains '\\' at index ${i}; JSON would escape it`;
  }
  return undefined;
}
